//! The link-preview picture (`og:image`) over real HTTP.

use crate::common;

use common::start;
use reqwest::{header, StatusCode};

#[tokio::test]
async fn the_preview_picture_is_a_cacheable_png_of_link_preview_size() {
    let server = start().await;
    let answer = server
        .http
        .get(server.url("/preview.png"))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let headers = answer.headers().clone();
    assert_eq!(headers[header::CONTENT_TYPE], "image/png");
    let cache = headers[header::CACHE_CONTROL].to_str().unwrap();
    assert!(cache.contains("max-age="), "{cache}");
    let body = answer.bytes().await.unwrap();
    assert_eq!(&body[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: width 1200, height 630, as the pages' og:image tags say.
    assert_eq!(&body[16..24], &[0, 0, 4, 176, 0, 0, 2, 118]);

    let etag = headers[header::ETAG].clone();
    let again = server
        .http
        .get(server.url("/preview.png"))
        .header(header::IF_NONE_MATCH, etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    server.stop().await;
}
