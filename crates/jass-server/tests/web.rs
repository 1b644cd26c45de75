//! The browser client is served from the binary: content types, strong ETags with 304
//! revalidation, brotli or gzip as the request accepts, the table page at `/t/{table}`,
//! and nothing outside the client's files, also not through a symlink in a `--web-dir`
//! folder.

mod common;

use common::{Server, fast_config};
use jass_server::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A GET with extra header lines; the status, the head (lowercased) and the body bytes.
async fn get(server: &Server, path: &str, headers: &str) -> (u16, String, Vec<u8>) {
    let mut s = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nhost: test\r\n{headers}connection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.unwrap();
    let split = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(out[..split].to_vec()).unwrap().to_ascii_lowercase();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head, out[split + 4..].to_vec())
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| l.strip_prefix(&format!("{name}: ")))
}

#[tokio::test]
async fn the_built_in_client_is_served_with_types_etags_and_compression() {
    let server = Server::start(fast_config()).await;
    let (status, head, body) = get(&server, "/", "").await;
    assert_eq!(status, 200);
    assert_eq!(header(&head, "content-type"), Some("text/html; charset=utf-8"));
    assert!(String::from_utf8(body).unwrap().contains("<html"), "the page itself");
    let (status, head, _) = get(&server, "/t/k3v9q2x7m4p8r6t1w5y0z2b8", "").await;
    assert_eq!((status, header(&head, "content-type")), (200, Some("text/html; charset=utf-8")));

    let (status, head, plain) = get(&server, "/app.js", "").await;
    assert_eq!(status, 200);
    assert_eq!(header(&head, "content-type"), Some("text/javascript; charset=utf-8"));
    assert_eq!(header(&head, "cache-control"), Some("no-cache"));
    let etag = header(&head, "etag").unwrap().to_owned();
    assert!(etag.starts_with('"') && etag.len() > 10, "a strong etag: {etag}");

    let (_, head, br) = get(&server, "/app.js", "accept-encoding: gzip, br\r\n").await;
    assert_eq!(header(&head, "content-encoding"), Some("br"));
    assert!(br.len() < plain.len() / 2, "brotli: {} of {} bytes", br.len(), plain.len());
    let (_, head, gz) = get(&server, "/app.js", "accept-encoding: gzip, br;q=0\r\n").await;
    assert_eq!(header(&head, "content-encoding"), Some("gzip"));
    let mut unzipped = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut unzipped).unwrap();
    assert_eq!(unzipped, plain);

    let (status, _, body) = get(&server, "/app.js", &format!("if-none-match: {etag}\r\n")).await;
    assert_eq!((status, body.len()), (304, 0), "revalidation costs nothing");

    for path in ["/nothing.js", "/../Cargo.toml", "/%2e%2e/Cargo.toml", "/.hidden"] {
        assert_eq!(get(&server, path, "").await.0, 404, "{path}");
    }
}

#[tokio::test]
async fn a_web_dir_serves_its_own_files_and_nothing_a_symlink_points_to() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("index.html"), "<html>dev</html>").unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(outside.path().join("secret.txt"), dir.path().join("leak.txt")).unwrap();
    let config = Config { web_dir: Some(dir.path().to_owned()), ..fast_config() };
    let server = Server::start(config).await;
    let (status, _, body) = get(&server, "/", "").await;
    assert_eq!((status, body.as_slice()), (200, &b"<html>dev</html>"[..]));
    assert_eq!(get(&server, "/leak.txt", "").await.0, 404, "a symlink out of the folder");
}
