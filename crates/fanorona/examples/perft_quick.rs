fn main() {
    let d: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let pos = fanorona::Position::start();
    for i in 1..=d {
        let t = std::time::Instant::now();
        let n = fanorona::perft(&pos, i);
        println!("{i} {n} {:?}", t.elapsed());
    }
}
