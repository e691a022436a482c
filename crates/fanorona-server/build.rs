//! Rebuilds when the embedded migrations or web files change.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
    println!("cargo:rerun-if-changed=../../web");
    println!("cargo:rerun-if-changed=tests/fixtures/web");
}
