//! `GET /preview.png`: the picture chat apps show beside a link to the
//! site (`og:image`). It is the board at the start, drawn in the colours
//! of the site's light theme, 1200 x 630 pixels (the size link previews
//! are drawn at), rendered once and kept for the life of the process.

use std::sync::OnceLock;

use axum::{
    body::Bytes,
    http::{header, HeaderMap, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use fanorona::{Color, Position, Square};
use tiny_skia::{Color as Rgba, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// The picture's size: the 1.91:1 of Open Graph's large image.
const WIDTH: u32 = 1200;
/// The picture's height.
const HEIGHT: u32 = 630;

/// Distance between two neighbouring points, in pixels.
const SPACING: f32 = 116.0;
/// Room between the outer lines and the board's edge.
const PAD: f32 = 58.0;

/// The encoded picture, made by the first caller.
static PNG: OnceLock<Option<Bytes>> = OnceLock::new();

/// The picture as PNG bytes; `None` only if encoding failed. Draws it the
/// first time (about 10 ms in a debug build): call it off the async workers
/// when it may not be ready.
pub(crate) fn png() -> Option<Bytes> {
    PNG.get_or_init(|| {
        let encoded = draw(&Position::start()).and_then(|p| p.encode_png().ok());
        if encoded.is_none() {
            tracing::error!("the preview picture could not be drawn");
        }
        encoded.map(Bytes::from)
    })
    .clone()
}

/// Answers `GET /preview.png`.
pub(super) async fn preview(headers: HeaderMap) -> Response {
    let png = match PNG.get() {
        Some(ready) => ready.clone(),
        None => tokio::task::spawn_blocking(png).await.ok().flatten(),
    };
    let Some(png) = png else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    // The picture changes only with the server's code: one ETag per build.
    let etag = concat!("\"preview-", env!("CARGO_PKG_VERSION"), "\"");
    let cached = headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes());
    let mut response = if cached {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, "image/png")], png).into_response()
    };
    let out = response.headers_mut();
    out.insert(header::ETAG, HeaderValue::from_static(etag));
    out.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=86400"),
    );
    response
}

fn rgb(hex: u32) -> Rgba {
    let [_, r, g, b] = hex.to_be_bytes();
    Rgba::from_rgba8(r, g, b, 255)
}

fn paint(hex: u32) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(rgb(hex));
    paint.anti_alias = true;
    paint
}

/// The centre of `sq` in the picture, White at the bottom.
fn centre(sq: Square) -> (f32, f32) {
    let left = (WIDTH as f32 - 8.0 * SPACING) / 2.0;
    let top = (HEIGHT as f32 - 4.0 * SPACING) / 2.0;
    (
        left + f32::from(sq.file()) * SPACING,
        top + f32::from(4 - sq.rank()) * SPACING,
    )
}

/// Draws `position`'s board; `None` only for an impossible size.
fn draw(position: &Position) -> Option<Pixmap> {
    let mut pixmap = Pixmap::new(WIDTH, HEIGHT)?;
    pixmap.fill(rgb(0xf6efe3));
    let (x0, y0) = centre(Square::A5);
    let (x1, y1) = centre(Square::I1);
    let board = rounded_rect(x0 - PAD, y0 - PAD, x1 + PAD, y1 + PAD, 28.0)?;
    let identity = Transform::identity();
    pixmap.fill_path(&board, &paint(0xe2bf8a), FillRule::Winding, identity, None);
    let edge = Stroke {
        width: 6.0,
        ..Stroke::default()
    };
    pixmap.stroke_path(&board, &paint(0xc99c5e), &edge, identity, None);
    let lines = Stroke {
        width: 5.0,
        ..Stroke::default()
    };
    pixmap.stroke_path(&board_lines()?, &paint(0x5e4025), &lines, identity, None);
    for sq in Square::all() {
        let (x, y) = centre(sq);
        match position.board().stone_at(sq) {
            Some(color) => stone(&mut pixmap, x, y, color)?,
            None => {
                let dot = PathBuilder::from_circle(x, y, 9.0)?;
                pixmap.fill_path(&dot, &paint(0x5e4025), FillRule::Winding, identity, None);
            }
        }
    }
    Some(pixmap)
}

/// Every line of the board: rows, columns, and the diagonals that join
/// strong points.
fn board_lines() -> Option<tiny_skia::Path> {
    let mut lines = PathBuilder::new();
    for sq in Square::all() {
        let (x, y) = centre(sq);
        let (file, rank) = (sq.file(), sq.rank());
        let mut to = |df: i8, dr: i8| {
            let f = file.checked_add_signed(df);
            let r = rank.checked_add_signed(dr);
            if let Some(other) = f.zip(r).and_then(|(f, r)| Square::from_coords(f, r)) {
                let (x2, y2) = centre(other);
                lines.move_to(x, y);
                lines.line_to(x2, y2);
            }
        };
        to(1, 0);
        to(0, 1);
        if sq.is_strong() {
            to(1, 1);
            to(1, -1);
        }
    }
    lines.finish()
}

/// A stone with its edge; black stones carry a light ring, the second cue
/// besides colour that the board on the site gives them too.
fn stone(pixmap: &mut Pixmap, x: f32, y: f32, color: Color) -> Option<()> {
    let identity = Transform::identity();
    let body = PathBuilder::from_circle(x, y, 40.0)?;
    let edge = Stroke {
        width: 4.0,
        ..Stroke::default()
    };
    match color {
        Color::White => {
            pixmap.fill_path(&body, &paint(0xfffdf7), FillRule::Winding, identity, None);
            pixmap.stroke_path(&body, &paint(0x2d2118), &edge, identity, None);
        }
        Color::Black => {
            pixmap.fill_path(&body, &paint(0x221c18), FillRule::Winding, identity, None);
            pixmap.stroke_path(&body, &paint(0x0c0a08), &edge, identity, None);
            let ring = PathBuilder::from_circle(x, y, 21.0)?;
            pixmap.stroke_path(&ring, &paint(0xf1e4cc), &edge, identity, None);
        }
    }
    Some(())
}

/// A rectangle with rounded corners of radius `r`.
fn rounded_rect(left: f32, top: f32, right: f32, bottom: f32, r: f32) -> Option<tiny_skia::Path> {
    Rect::from_ltrb(left, top, right, bottom)?;
    let mut p = PathBuilder::new();
    p.move_to(left + r, top);
    p.line_to(right - r, top);
    p.quad_to(right, top, right, top + r);
    p.line_to(right, bottom - r);
    p.quad_to(right, bottom, right - r, bottom);
    p.line_to(left + r, bottom);
    p.quad_to(left, bottom, left, bottom - r);
    p.line_to(left, top + r);
    p.quad_to(left, top, left + r, top);
    p.close();
    p.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(pixmap: &Pixmap, (x, y): (f32, f32)) -> [u8; 3] {
        // The centres are whole pixels: the conversion loses nothing.
        let p = pixmap
            .pixel(x.round() as u32, y.round() as u32)
            .unwrap_or_else(|| panic!("({x}, {y}) is outside the picture"));
        [p.red(), p.green(), p.blue()]
    }

    #[test]
    fn the_picture_shows_the_start_position() {
        let pixmap = draw(&Position::start()).expect("draws");
        // Row 1 white, row 5 black (its ring is off the centre), e3 empty.
        assert_eq!(pixel(&pixmap, centre(Square::A1)), [0xff, 0xfd, 0xf7]);
        assert_eq!(pixel(&pixmap, centre(Square::I5)), [0x22, 0x1c, 0x18]);
        assert_eq!(pixel(&pixmap, centre(Square::B3)), [0xff, 0xfd, 0xf7]);
        assert_eq!(pixel(&pixmap, centre(Square::C3)), [0x22, 0x1c, 0x18]);
        assert_eq!(pixel(&pixmap, centre(Square::E3)), [0x5e, 0x40, 0x25]);
        // Between two points of a row there is a line; inside a square of
        // four points, off every line, the board shows.
        let (ax, ay) = centre(Square::A1);
        assert_eq!(pixel(&pixmap, (ax + SPACING / 2.0, ay)), [0x5e, 0x40, 0x25]);
        let off_line = (ax + SPACING / 2.0, ay - SPACING / 4.0);
        assert_eq!(pixel(&pixmap, off_line), [0xe2, 0xbf, 0x8a]);
        // Outside the board, the page's background.
        assert_eq!(pixel(&pixmap, (4.0, 4.0)), [0xf6, 0xef, 0xe3]);
    }

    #[test]
    fn diagonals_join_strong_points_only() {
        let pixmap = draw(&Position::start()).expect("draws");
        // Halfway between a1 (strong) and b2: on the diagonal from a1.
        let (ax, ay) = centre(Square::A1);
        let (bx, by) = centre(Square::B2);
        let mid = ((ax + bx) / 2.0, (ay + by) / 2.0);
        assert_eq!(pixel(&pixmap, mid), [0x5e, 0x40, 0x25]);
        // Along b1-c2 (two weak points), away from the c1-b2 diagonal that
        // crosses it: no line there.
        let (b1x, b1y) = centre(Square::B1);
        let (c2x, c2y) = centre(Square::C2);
        let mid = (b1x + 0.6 * (c2x - b1x), b1y + 0.6 * (c2y - b1y));
        assert_eq!(pixel(&pixmap, mid), [0xe2, 0xbf, 0x8a]);
    }

    #[test]
    fn the_png_has_the_announced_size() {
        let png = png().expect("encodes");
        assert_eq!(&png[1..4], b"PNG");
        // The IHDR chunk holds the width and height, big-endian.
        assert_eq!(&png[16..20], &WIDTH.to_be_bytes());
        assert_eq!(&png[20..24], &HEIGHT.to_be_bytes());
    }
}
