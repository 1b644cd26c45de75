//! The browser client: built into the binary, so the server serves the game wherever it
//! is started, or read from `--web-dir` while developing it.
//!
//! Every file has a strong `ETag` (a hash of its bytes) and `Cache-Control: no-cache`:
//! the file names carry no version, so a browser revalidates each load and gets a
//! cheap `304` while nothing changed. A built-in text file is compressed (brotli and
//! gzip) the first time a browser asks for it that way, then kept, and sent in the
//! best encoding the request accepts.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, LazyLock, OnceLock};

use axum::body::{Body, Bytes};
use axum::http::header::{
    ACCEPT_ENCODING, CACHE_CONTROL, CONTENT_ENCODING, CONTENT_TYPE, ETAG, IF_NONE_MATCH, VARY,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The client as it was when the server was built.
#[derive(rust_embed::Embed)]
#[folder = "../../web/"]
struct Embedded;

/// One file, ready to send.
#[derive(Debug, Clone)]
pub(crate) struct Asset {
    body: Bytes,
    /// Whether it is text worth compressing.
    compress: bool,
    gzip: OnceLock<Option<Bytes>>,
    br: OnceLock<Option<Bytes>>,
    etag: HeaderValue,
    content_type: HeaderValue,
}

/// Where the client's files come from.
#[derive(Debug)]
pub(crate) enum Web {
    /// Built in.
    Embedded(&'static HashMap<String, Arc<Asset>>),
    /// A folder on disk (its canonical path), read on every request: edits show at
    /// once. Nothing outside it is served, also not through a symlink.
    Dir(PathBuf),
}

impl Web {
    /// The built-in client.
    pub(crate) fn embedded() -> Self {
        /// Read once per process, however many servers it runs (tests run many).
        static FILES: LazyLock<HashMap<String, Arc<Asset>>> = LazyLock::new(|| {
            Embedded::iter()
                .filter_map(|name| {
                    let file = Embedded::get(&name)?;
                    let asset = Asset::new(&name, Bytes::from(file.data.into_owned()), true);
                    Some((name.into_owned(), Arc::new(asset)))
                })
                .collect()
        });
        Self::Embedded(&FILES)
    }

    /// The client in `dir`.
    ///
    /// # Errors
    /// The folder does not exist or cannot be read.
    pub(crate) fn dir(dir: &Path) -> std::io::Result<Self> {
        let root = dir.canonicalize()?;
        if !root.is_dir() {
            return Err(std::io::Error::other(format!("{} is not a folder", root.display())));
        }
        Ok(Self::Dir(root))
    }

    async fn get(&self, path: &str) -> Option<Arc<Asset>> {
        let path = clean(path)?;
        match self {
            Self::Embedded(files) => files.get(&path).cloned(),
            Self::Dir(root) => {
                let file = root.join(&path).canonicalize().ok()?;
                // A symlink (or anything) that leads out of the folder is not served.
                if !file.starts_with(root) || !file.is_file() {
                    return None;
                }
                let bytes = tokio::fs::read(&file).await.ok()?;
                Some(Arc::new(Asset::new(&path, Bytes::from(bytes), false)))
            }
        }
    }
}

impl Asset {
    fn new(name: &str, body: Bytes, compress: bool) -> Self {
        let mime = mime_guess::from_path(name).first_or_octet_stream();
        let text = mime.type_() == "text"
            || matches!(mime.subtype().as_str(), "javascript" | "json" | "svg" | "manifest")
            || mime.suffix().is_some_and(|s| s == "json" || s == "xml");
        let content_type = if mime.type_() == "text" || mime.subtype() == "javascript" {
            format!("{mime}; charset=utf-8")
        } else {
            mime.to_string()
        };
        let hash = Sha256::digest(&body);
        let etag = format!("\"{}\"", hex::encode(hash.get(..12).unwrap_or(&hash)));
        Self {
            compress: compress && text && body.len() > 512,
            gzip: OnceLock::new(),
            br: OnceLock::new(),
            etag: HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"0\"")),
            content_type: HeaderValue::from_str(&content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream")),
            body,
        }
    }
}

impl Asset {
    fn br(&self) -> Option<&Bytes> {
        if !self.compress {
            return None;
        }
        self.br.get_or_init(|| brotli(&self.body)).as_ref()
    }

    fn gzip(&self) -> Option<&Bytes> {
        if !self.compress {
            return None;
        }
        self.gzip.get_or_init(|| gzip(&self.body)).as_ref()
    }
}

fn gzip(body: &[u8]) -> Option<Bytes> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(body).ok()?;
    e.finish().ok().map(Bytes::from)
}

fn brotli(body: &[u8]) -> Option<Bytes> {
    let mut out = Vec::new();
    let params = brotli::enc::BrotliEncoderParams { quality: 11, ..Default::default() };
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).ok()?;
    Some(Bytes::from(out))
}

/// The request path as a relative file name, or `None` for anything that could
/// leave the folder or name a hidden file.
fn clean(path: &str) -> Option<String> {
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    let ok = Path::new(path).components().all(|c| match c {
        Component::Normal(s) => !s.to_string_lossy().starts_with('.'),
        _ => false,
    });
    ok.then(|| path.to_owned())
}

/// Whether the request accepts `coding` (a `q=0` refuses it).
fn accepts(headers: &HeaderMap, coding: &str) -> bool {
    headers.get_all(ACCEPT_ENCODING).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(',')).any(
        |item| {
            let mut parts = item.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| p.replace(' ', "") == "q=0" || p.replace(' ', "") == "q=0.0");
            name.eq_ignore_ascii_case(coding) && !refused
        },
    )
}

fn respond(asset: &Asset, method: &Method, headers: &HeaderMap) -> Response {
    let mut res = Response::new(Body::empty());
    let h = res.headers_mut();
    h.insert(ETAG, asset.etag.clone());
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(CONTENT_TYPE, asset.content_type.clone());
    if asset.compress {
        h.insert(VARY, HeaderValue::from_static("accept-encoding"));
    }
    let fresh = headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == asset.etag.to_str().unwrap_or("") || t.trim() == "*");
    if fresh {
        *res.status_mut() = StatusCode::NOT_MODIFIED;
        return res;
    }
    let br = if accepts(headers, "br") { asset.br() } else { None };
    let gz = if br.is_none() && accepts(headers, "gzip") { asset.gzip() } else { None };
    let (body, coding) = match (br, gz) {
        (Some(b), _) => (b.clone(), Some("br")),
        (_, Some(g)) => (g.clone(), Some("gzip")),
        _ => (asset.body.clone(), None),
    };
    if let Some(c) = coding {
        res.headers_mut().insert(CONTENT_ENCODING, HeaderValue::from_static(c));
    }
    if method != Method::HEAD {
        *res.body_mut() = Body::from(body);
    }
    res
}

/// `GET /t/{table}`: the client's page, which reads the table from the address.
pub(crate) async fn table_page(web: &Web, method: &Method, headers: &HeaderMap) -> Response {
    match web.get("index.html").await {
        Some(asset) => respond(&asset, method, headers),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

/// Every other path: a file of the client, or 404.
pub(crate) async fn file(web: &Web, method: &Method, uri: &Uri, headers: &HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    match web.get(uri.path()).await {
        Some(asset) => respond(&asset, method, headers),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_leave_the_folder_are_refused() {
        assert_eq!(clean("/").as_deref(), Some("index.html"));
        assert_eq!(clean("/cards/back.svg").as_deref(), Some("cards/back.svg"));
        for bad in ["/../Cargo.toml", "/cards/../../x", "/.git/config", "/cards/.hidden"] {
            assert_eq!(clean(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_built_in_client_is_complete_and_compressed() {
        let Web::Embedded(files) = Web::embedded() else { panic!() };
        assert!(files.contains_key("index.html"));
        for name in ["app.js", "style.css", "vendor/qrcode.js"] {
            let f = files.get(name).unwrap_or_else(|| panic!("{name} is built in"));
            let br = f.br().unwrap_or_else(|| panic!("{name} has a brotli copy"));
            assert!(br.len() < f.body.len(), "{name} compresses");
        }
        assert_eq!(files["app.js"].content_type, "text/javascript; charset=utf-8");
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        let mut h = HeaderMap::new();
        h.insert(ACCEPT_ENCODING, HeaderValue::from_static("gzip, deflate, br;q=0"));
        assert!(accepts(&h, "gzip") && !accepts(&h, "br"));
    }
}
