//! `plot`: an SVG of how the cost grows with the number of games, drawn
//! from the CSV lines of several runs (open-loop lines without games
//! against the computer beside them; the last line of each kind and game
//! count wins).

use std::{collections::BTreeMap, error::Error, fmt::Write as _};

use crate::cli::PlotArgs;

/// One panel: a title, a unit and the CSV column drawn for each kind.
struct Panel {
    title: &'static str,
    /// Whether the value axis is logarithmic (decades).
    log: bool,
    series: &'static [(&'static str, &'static str, &'static str, f64)],
}

/// (kind, column, legend, scale) per series.
const PANELS: [Panel; 3] = [
    Panel {
        title: "latency (ms, log scale)",
        log: true,
        series: &[
            ("relay", "p50_us", "relay p50", 1e-3),
            ("relay", "p99_us", "relay p99", 1e-3),
            ("echo", "p50_us", "echo p50", 1e-3),
            ("echo", "p99_us", "echo p99", 1e-3),
        ],
    },
    Panel {
        title: "server CPU per step (us)",
        log: false,
        series: &[
            ("relay", "cpu_per_step_us", "relay", 1.0),
            ("echo", "cpu_per_step_us", "echo", 1.0),
        ],
    },
    Panel {
        title: "server memory per socket (KiB)",
        log: false,
        series: &[
            ("relay", "rss_per_socket_b", "relay", 1.0 / 1024.0),
            ("echo", "rss_per_socket_b", "echo", 1.0 / 1024.0),
        ],
    },
];

const COLORS: [&str; 4] = ["#c0392b", "#e67e22", "#2471a3", "#5dade2"];

type Rows = BTreeMap<(String, u64), BTreeMap<String, String>>;

/// Reads `--csv` and writes the SVG to `--out`.
///
/// # Errors
///
/// When the CSV cannot be read or has no open-loop lines, or the SVG
/// cannot be written.
pub fn plot(args: &PlotArgs) -> Result<(), Box<dyn Error>> {
    let text = std::fs::read_to_string(&args.csv)?;
    let rows = read_rows(&text);
    if rows.is_empty() {
        return Err("no open-loop lines in the CSV".into());
    }
    std::fs::write(&args.out, svg(&rows))?;
    Ok(())
}

fn read_rows(text: &str) -> Rows {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let mut rows = Rows::new();
    for line in lines {
        let row: BTreeMap<String, String> = header
            .iter()
            .zip(line.split(','))
            .map(|(k, v)| ((*k).to_owned(), v.to_owned()))
            .collect();
        let games = row.get("games").and_then(|g| g.parse().ok());
        let (Some(kind), Some(games)) = (row.get("kind").cloned(), games) else {
            continue;
        };
        // Lines written before the column existed had none beside.
        let beside = row
            .get("computer_games")
            .is_some_and(|n| !matches!(n.as_str(), "" | "0"));
        if row.get("mode").map(String::as_str) == Some("open") && !beside {
            rows.insert((kind, games), row);
        }
    }
    rows
}

fn svg(rows: &Rows) -> String {
    let games: Vec<u64> = {
        let mut g: Vec<u64> = rows.keys().map(|(_, g)| *g).collect();
        g.sort_unstable();
        g.dedup();
        g
    };
    let (w, h, pw) = (960.0, 330.0, 320.0);
    let mut out = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = write!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    for (i, panel) in PANELS.iter().enumerate() {
        let left = i as f64 * pw + 45.0;
        draw_panel(&mut out, panel, rows, &games, left, pw - 65.0);
    }
    out.push_str("</svg>\n");
    out
}

fn draw_panel(out: &mut String, panel: &Panel, rows: &Rows, games: &[u64], left: f64, width: f64) {
    let (top, height) = (30.0, 220.0);
    let value = |kind: &str, g: u64, col: &str, scale: f64| {
        rows.get(&(kind.to_owned(), g))
            .and_then(|r| r.get(col))
            .and_then(|v| v.parse::<f64>().ok())
            .map(|v| v * scale)
    };
    let values: Vec<f64> = panel
        .series
        .iter()
        .flat_map(|(k, c, _, s)| games.iter().filter_map(move |&g| value(k, g, c, *s)))
        .filter(|v| *v > 0.0)
        .collect();
    let max = values.iter().copied().fold(1e-9_f64, f64::max);
    let min = values.iter().copied().fold(max, f64::min);
    let (lo, hi) = if panel.log {
        (
            min.log10().floor(),
            max.log10().ceil().max(min.log10().floor() + 1.0),
        )
    } else {
        (0.0, max * 1.1)
    };
    let x = |i: usize| left + width * (i as f64 + 0.5) / games.len().max(1) as f64;
    let y = |v: f64| {
        let t = if panel.log {
            (v.max(1e-12).log10() - lo) / (hi - lo)
        } else {
            v / hi
        };
        top + height - height * t
    };
    let ticks: Vec<f64> = if panel.log {
        (lo as i32..=hi as i32).map(|e| 10f64.powi(e)).collect()
    } else {
        (0..=4).map(|t| hi * f64::from(t) / 4.0).collect()
    };
    let _ = write!(
        out,
        r##"<text x="{left}" y="18" font-weight="bold">{}</text><line x1="{left}" y1="{}" x2="{}" y2="{}" stroke="#333"/><line x1="{left}" y1="{top}" x2="{left}" y2="{}" stroke="#333"/>"##,
        panel.title,
        top + height,
        left + width,
        top + height,
        top + height
    );
    for v in ticks {
        let _ = write!(
            out,
            r##"<text x="{}" y="{}" text-anchor="end" fill="#555">{}</text>"##,
            left - 4.0,
            y(v) + 4.0,
            short(v)
        );
    }
    for (i, g) in games.iter().enumerate() {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">{g} games</text>"#,
            x(i),
            top + height + 16.0
        );
    }
    for (n, (kind, col, legend, scale)) in panel.series.iter().enumerate() {
        let color = COLORS.get(n).copied().unwrap_or("#000");
        let points: Vec<String> = games
            .iter()
            .enumerate()
            .filter_map(|(i, &g)| {
                value(kind, g, col, *scale).map(|v| format!("{:.1},{:.1}", x(i), y(v)))
            })
            .collect();
        let _ = write!(
            out,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            points.join(" ")
        );
        for p in &points {
            let (px, py) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = write!(out, r#"<circle cx="{px}" cy="{py}" r="3" fill="{color}"/>"#);
        }
        let ly = top + height + 34.0 + 14.0 * n as f64;
        let _ = write!(
            out,
            r#"<line x1="{left}" y1="{ly}" x2="{}" y2="{ly}" stroke="{color}" stroke-width="2"/><text x="{}" y="{}">{legend}</text>"#,
            left + 18.0,
            left + 24.0,
            ly + 4.0
        );
    }
}

fn short(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 1.0 {
        format!("{v:.1}")
    } else if v >= 0.01 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::CSV_HEADER;

    /// A CSV line of `kind` and `games` with every other cell `1`, but
    /// `computer_games` set to `beside`.
    fn line(kind: &str, games: u64, beside: u64) -> String {
        let header: Vec<&str> = CSV_HEADER.split(',').collect();
        let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
        let mut cells = vec!["1".to_owned(); header.len()];
        cells[column("kind")] = kind.to_owned();
        cells[column("mode")] = "open".to_owned();
        cells[column("games")] = games.to_string();
        cells[column("computer_games")] = beside.to_string();
        cells.join(",")
    }

    #[test]
    fn runs_with_games_against_the_computer_are_not_plotted() {
        let csv = format!(
            "{CSV_HEADER}\n{}\n{}\n",
            line("relay", 1000, 0),
            line("relay", 1000, 50)
        );
        let rows = read_rows(&csv);
        assert_eq!(rows.len(), 1);
        let kept = rows
            .get(&("relay".to_owned(), 1000))
            .expect("the plain run");
        assert_eq!(kept.get("computer_games").map(String::as_str), Some("0"));
        // A line from before the column: plotted.
        let old_header = CSV_HEADER.split(",computer_games").next().expect("header");
        let old = format!("{old_header}\n{}\n", line("relay", 100, 50));
        assert_eq!(read_rows(&old).len(), 1);
    }

    #[test]
    fn the_plot_has_a_line_per_series() {
        let line = |kind: &str, games: u64| line(kind, games, 0);
        let csv = format!(
            "{CSV_HEADER}\n{}\n{}\n{}\n{}\n",
            line("relay", 100),
            line("echo", 100),
            line("relay", 1000),
            line("echo", 1000)
        );
        let rows = read_rows(&csv);
        assert_eq!(rows.len(), 4);
        let svg = svg(&rows);
        assert_eq!(svg.matches("<polyline").count(), 8);
        assert!(svg.contains("1000 games"));
    }
}
