//! The WebSocket `Origin` check: browsers attach a page's origin to its upgrade, and
//! without this check any site could open a seat with a visitor's stored token
//! (cross-site WebSocket hijacking). Non-browser clients send no `Origin` and pass.

/// Whether a request with `origin` (the header, if any) and `host` (the `Host` header)
/// may upgrade: no origin, the server's own origin, or one in `allowed`.
pub(crate) fn allowed(origin: Option<&str>, host: Option<&str>, allowed: &[String]) -> bool {
    let Some(origin) = origin else { return true };
    let origin = origin.trim().trim_end_matches('/');
    if allowed.iter().any(|a| a.trim().trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some((scheme, authority)) = origin.split_once("://") else { return false };
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => "80",
        "https" => "443",
        _ => return false,
    };
    let Some(host) = host else { return false };
    if authority.is_empty() || authority.contains(['/', '@', '?', '#']) {
        return false;
    }
    normalize(authority, default_port) == normalize(host.trim(), default_port)
}

/// `host[:port]` lowercased, with the scheme's default port made explicit.
fn normalize(authority: &str, default_port: &str) -> String {
    let lower = authority.to_ascii_lowercase();
    // An IPv6 literal is bracketed, so a port is only after the last `]`.
    let after_host = lower.rfind(']').map_or(0, |i| i + 1);
    let has_port = lower.get(after_host..).is_some_and(|rest| rest.contains(':'));
    if has_port { lower } else { format!("{lower}:{default_port}") }
}

#[cfg(test)]
mod tests {
    use super::allowed;

    #[test]
    fn no_origin_passes() {
        assert!(allowed(None, Some("jass.example"), &[]));
        assert!(allowed(None, None, &[]));
    }

    #[test]
    fn same_origin_passes() {
        assert!(allowed(Some("http://127.0.0.1:8080"), Some("127.0.0.1:8080"), &[]));
        assert!(allowed(Some("https://Jass.Example"), Some("jass.example"), &[]));
        assert!(allowed(Some("https://jass.example"), Some("jass.example:443"), &[]));
        assert!(allowed(Some("http://jass.example:80"), Some("jass.example"), &[]));
        assert!(allowed(Some("http://[::1]:8080"), Some("[::1]:8080"), &[]));
    }

    #[test]
    fn other_origins_fail() {
        assert!(!allowed(Some("http://evil.example"), Some("jass.example"), &[]));
        assert!(!allowed(Some("http://jass.example:8081"), Some("jass.example:8080"), &[]));
        assert!(!allowed(Some("https://jass.example"), Some("jass.example:80"), &[]));
        assert!(!allowed(Some("null"), Some("jass.example"), &[]));
        assert!(!allowed(Some("ftp://jass.example"), Some("jass.example"), &[]));
        assert!(!allowed(Some("http://jass.example"), None, &[]));
        assert!(!allowed(Some("http://x@jass.example"), Some("jass.example"), &[]));
    }

    #[test]
    fn configured_origins_pass() {
        let list = vec!["https://jass.example/".to_owned()];
        assert!(allowed(Some("https://jass.example"), Some("10.0.0.5:8080"), &list));
        assert!(!allowed(Some("https://other.example"), Some("10.0.0.5:8080"), &list));
    }
}
