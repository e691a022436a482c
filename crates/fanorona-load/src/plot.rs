//! `plot`: an SVG of how the cost grows with the number of games, drawn
//! from the CSV lines of several runs (open-loop lines without games
//! against the computer beside them; the last line of each kind and game
//! count wins), drawn with the SVG backend of `plotters`.

use std::{collections::BTreeMap, error::Error};

use plotters::{
    coord::Shift,
    prelude::*,
    style::text_anchor::{HPos, Pos, VPos},
};

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

/// The font of every text; plotters' SVG writes sizes at 1/1.24 of this,
/// 11 px here.
const FONT: (&str, f64) = ("sans-serif", 13.6);

/// The colour of each series of a panel, in order.
const COLORS: [RGBColor; 4] = [
    RGBColor(0xc0, 0x39, 0x2b),
    RGBColor(0xe6, 0x7e, 0x22),
    RGBColor(0x24, 0x71, 0xa3),
    RGBColor(0x5d, 0xad, 0xe2),
];

type Rows = BTreeMap<(String, u64), BTreeMap<String, String>>;

/// Reads `--csv` and writes the SVG to `--out`.
///
/// # Errors
///
/// When the CSV cannot be read or has no open-loop lines, or the SVG
/// cannot be drawn or written.
pub fn plot(args: &PlotArgs) -> Result<(), Box<dyn Error>> {
    let text = std::fs::read_to_string(&args.csv)?;
    let rows = read_rows(&text);
    if rows.is_empty() {
        return Err("no open-loop lines in the CSV".into());
    }
    std::fs::write(&args.out, svg(&rows)?)?;
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

/// The three panels side by side, each game count a place on the
/// horizontal axis.
fn svg(rows: &Rows) -> Result<String, Box<dyn Error>> {
    let games: Vec<u64> = {
        let mut g: Vec<u64> = rows.keys().map(|(_, g)| *g).collect();
        g.sort_unstable();
        g.dedup();
        g
    };
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (960, 330)).into_drawing_area();
        root.fill(&WHITE)?;
        for (area, panel) in root.split_evenly((1, PANELS.len())).iter().zip(&PANELS) {
            draw_panel(area, panel, rows, &games)?;
        }
        root.present()?;
    }
    Ok(out)
}

/// One series: its legend and its points, (place of the game count, value).
type Series = (&'static str, Vec<(f64, f64)>);

fn draw_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    panel: &Panel,
    rows: &Rows,
    games: &[u64],
) -> Result<(), Box<dyn Error>> {
    let value = |kind: &str, g: u64, col: &str, scale: f64| {
        rows.get(&(kind.to_owned(), g))
            .and_then(|r| r.get(col))
            .and_then(|v| v.parse::<f64>().ok())
            .map(|v| v * scale)
    };
    let series: Vec<Series> = panel
        .series
        .iter()
        .map(|(kind, col, legend, scale)| {
            let points = games
                .iter()
                .enumerate()
                .filter_map(|(i, &g)| value(kind, g, col, *scale).map(|v| (i as f64, v)))
                .collect();
            (*legend, points)
        })
        .collect();
    let values: Vec<f64> = series
        .iter()
        .flat_map(|(_, points)| points.iter().map(|(_, v)| *v))
        .filter(|v| *v > 0.0)
        .collect();
    let max = values.iter().copied().fold(1e-9_f64, f64::max);
    let min = values.iter().copied().fold(max, f64::min);
    let x = -0.5..games.len().max(1) as f64 - 0.5;
    // Only the places of the game counts are labelled.
    let x_label = |i: &f64| match games.get(i.round() as usize) {
        Some(g) if (i - i.round()).abs() < 1e-9 => format!("{g} games"),
        _ => String::new(),
    };
    let y_label = |v: &f64| short(*v);
    // The chart above, the legend below it.
    let (area, legend) = area.split_vertically(270);
    draw_legend(&legend, &series)?;
    let mut chart = ChartBuilder::on(&area);
    chart
        .caption(panel.title, FONT.into_font().style(FontStyle::Bold))
        .margin(8)
        .x_label_area_size(22)
        .y_label_area_size(42);
    if panel.log {
        let lo = min.log10().floor();
        let hi = max.log10().ceil().max(lo + 1.0);
        let decades = (lo as i32..=hi as i32).map(|e| 10f64.powi(e)).collect();
        let y = (10f64.powf(lo)..10f64.powf(hi))
            .log_scale()
            .with_key_points(decades);
        let mut chart = chart.build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .label_style(FONT)
            .x_labels(games.len())
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .draw()?;
        draw_series(&mut chart, series, |v| v.max(1e-12))
    } else {
        let mut chart = chart.build_cartesian_2d(x, 0.0..max * 1.1)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .label_style(FONT)
            .x_labels(games.len())
            .y_labels(5)
            .x_label_formatter(&x_label)
            .y_label_formatter(&y_label)
            .draw()?;
        draw_series(&mut chart, series, |v| v)
    }
}

/// A line of colour and the legend of each series, one under the other.
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    series: &[Series],
) -> Result<(), Box<dyn Error>> {
    let left = 52;
    for (n, (legend, _)) in series.iter().enumerate() {
        let color = COLORS.get(n).copied().unwrap_or(BLACK);
        let y = 8 + 14 * n as i32;
        area.draw(&Rectangle::new(
            [(left, y - 1), (left + 18, y + 1)],
            color.filled(),
        ))?;
        area.draw(&Text::new(
            *legend,
            (left + 24, y),
            TextStyle::from(FONT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// Each series as a line with a dot at each point; `fit` keeps a value
/// within the value axis.
fn draw_series<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    series: Vec<Series>,
    fit: impl Fn(f64) -> f64,
) -> Result<(), Box<dyn Error>>
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    for (n, (_, points)) in series.into_iter().enumerate() {
        let color = COLORS.get(n).copied().unwrap_or(BLACK);
        let points: Vec<(f64, f64)> = points.into_iter().map(|(i, v)| (i, fit(v))).collect();
        chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))?;
        chart.draw_series(
            points
                .into_iter()
                .map(|p| Circle::new(p, 3, color.filled())),
        )?;
    }
    Ok(())
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

    /// `line` with column `name` set to `value`.
    fn with(line: &str, name: &str, value: &str) -> String {
        let column = CSV_HEADER.split(',').position(|h| h == name).expect(name);
        let mut cells: Vec<&str> = line.split(',').collect();
        cells[column] = value;
        cells.join(",")
    }

    /// The points of the `n`th line of colour `stroke`, in order.
    fn points(svg: &str, stroke: &str, n: usize) -> Vec<(f64, f64)> {
        let element = svg
            .split("<polyline")
            .skip(1)
            .filter(|e| e.contains(&format!(r#"stroke="{stroke}""#)))
            .nth(n)
            .expect("the line");
        let list = element
            .split(r#"points=""#)
            .nth(1)
            .and_then(|p| p.split('"').next())
            .expect("points");
        list.split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                (x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect()
    }

    #[test]
    fn the_plot_has_a_line_per_series() {
        let line = |kind: &str, games: u64| line(kind, games, 0);
        // relay p50 rises from 1 to 4 ms; its memory per socket falls.
        let csv = format!(
            "{CSV_HEADER}\n{}\n{}\n{}\n{}\n",
            with(&line("relay", 100), "p50_us", "1000"),
            line("echo", 100),
            with(
                &with(&line("relay", 1000), "p50_us", "4000"),
                "rss_per_socket_b",
                "0.5"
            ),
            line("echo", 1000)
        );
        let rows = read_rows(&csv);
        assert_eq!(rows.len(), 4);
        let svg = svg(&rows).expect("drawn");
        assert!(
            svg.starts_with("<svg") && svg.ends_with("</svg>\n"),
            "{svg}"
        );
        assert_eq!(svg.matches("<text").count(), svg.matches("</text>").count());
        // Eight series of two points each: a line and two dots.
        assert_eq!(svg.matches(r#"stroke-width="2""#).count(), 8);
        assert_eq!(svg.matches("<circle").count(), 16);
        for label in [
            "100 games",
            "1000 games",
            "latency (ms, log scale)",
            "server CPU per step (us)",
            "server memory per socket (KiB)",
            "relay p50",
            "echo p99",
        ] {
            assert!(svg.contains(&format!("\n{label}\n")), "no {label:?}");
        }
        // The first red line is relay p50: it rises (up is a smaller y),
        // and the later game count is to the right.
        let p50 = points(&svg, "#C0392B", 0);
        assert_eq!(p50.len(), 2);
        assert!(p50[1].0 > p50[0].0 && p50[1].1 < p50[0].1, "{p50:?}");
        // The third is relay's memory per socket: it falls.
        let memory = points(&svg, "#C0392B", 2);
        assert!(memory[1].1 > memory[0].1, "{memory:?}");
        // A log axis labels its decades.
        assert!(svg.contains("\n1.0\n") && svg.contains("\n10.0\n"), "{svg}");
    }
}
