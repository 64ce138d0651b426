//! The client of a request, computed once, before every limit: the
//! connection's peer, or, when the peer is a trusted proxy
//! (`--trusted-proxy`), the address the proxies forwarded, as nginx's
//! `set_real_ip_from` with `real_ip_recursive on` reads it. The one header
//! the operator names (`X-Forwarded-For`, or RFC 7239's `Forwarded`) is
//! read from the right: each proxy appends the address it saw, so the
//! right-most address that is no trusted proxy is the client, and what
//! lies left of it is the client's own word, never read. An untrusted
//! peer's headers are ignored; a hop that does not parse, or a
//! `for=unknown`, leaves the peer as the client. The answer goes in the
//! request's extensions as a [`ClientKey`], which every limit counts by.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap};
use axum::middleware::Next;
use axum::response::Response;

use crate::client::{Cidr, ClientKey, Peer, RealIpHeader};
use crate::Server;

/// Puts the request's [`ClientKey`] in its extensions (a request without
/// a [`Peer`], sent through the router alone, is [`ClientKey::UNKNOWN`]).
pub(super) async fn identify(
    State(server): State<Arc<Server>>,
    mut req: Request,
    next: Next,
) -> Response {
    let key = match req.extensions().get::<Peer>() {
        Some(&Peer(peer)) => {
            let http = &server.config().http;
            ClientKey::of(client_ip(
                peer,
                req.headers(),
                &http.trusted_proxies,
                http.real_ip_header,
            ))
        }
        None => ClientKey::UNKNOWN,
    };
    req.extensions_mut().insert(key);
    next.run(req).await
}

/// The client's address of a request from `peer` with `headers`.
pub fn client_ip(
    peer: IpAddr,
    headers: &HeaderMap,
    trusted: &[Cidr],
    from: RealIpHeader,
) -> IpAddr {
    let is_trusted = |ip: IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(peer) {
        return peer;
    }
    let name = match from {
        RealIpHeader::XForwardedFor => header::HeaderName::from_static("x-forwarded-for"),
        RealIpHeader::Forwarded => header::FORWARDED,
    };
    // Several lines of a header are one list, in order.
    let mut lines = Vec::new();
    for value in headers.get_all(&name) {
        match value.to_str() {
            Ok(text) => lines.push(text),
            Err(_) => return peer,
        }
    }
    let list = lines.join(",");
    let Some(hops) = hops(&list, from) else {
        return peer;
    };
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop {
            Some(ip) => client = *ip,
            None => return peer,
        }
        if !is_trusted(client) {
            break;
        }
    }
    client
}

/// The addresses of a header's list, left to right, `None` for a hop
/// that names none; `None` for a list that does not split (an unclosed
/// quote). Empty elements are skipped, as HTTP's list syntax says.
fn hops(list: &str, from: RealIpHeader) -> Option<Vec<Option<IpAddr>>> {
    let elements = split_unquoted(list, ',')?;
    Some(
        elements
            .into_iter()
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(|e| match from {
                RealIpHeader::XForwardedFor => node(e),
                RealIpHeader::Forwarded => forwarded_for(e),
            })
            .collect(),
    )
}

/// `text` cut at each `sep` outside a quoted string; `None` if a quote is
/// left open.
fn split_unquoted(text: &str, sep: char) -> Option<Vec<&str>> {
    let mut parts = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if quoted && c == '\\' {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            parts.push(&text[start..i]);
            start = i + 1;
        }
    }
    if quoted {
        return None;
    }
    parts.push(&text[start..]);
    Some(parts)
}

/// The address of the `for=` parameter of one `Forwarded` element
/// (`for=192.0.2.60;proto=http`, `For="[2001:db8::17]:4711"`); `None`
/// without exactly one, or for `unknown` and obfuscated names.
fn forwarded_for(element: &str) -> Option<IpAddr> {
    let mut found = None;
    for pair in split_unquoted(element, ';')? {
        let (name, value) = pair.split_once('=')?;
        if name.trim().eq_ignore_ascii_case("for") {
            if found.is_some() {
                return None;
            }
            found = Some(unquote(value.trim())?);
        }
    }
    node(&found?)
}

/// A token, or a quoted string without its quotes and escapes.
fn unquote(value: &str) -> Option<String> {
    let Some(inner) = value.strip_prefix('"') else {
        return Some(value.to_owned());
    };
    let inner = inner.strip_suffix('"')?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next()? } else { c });
    }
    Some(out)
}

/// An address with an optional port: `192.0.2.1`, `192.0.2.1:80`,
/// `2001:db8::1`, `[2001:db8::1]`, `[2001:db8::1]:80`.
fn node(text: &str) -> Option<IpAddr> {
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Some(rest) = text.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let ip = inside.parse::<Ipv6Addr>().ok()?;
        return (after.is_empty() || port(after.strip_prefix(':')?)).then_some(IpAddr::V6(ip));
    }
    let (v4, p) = text.split_once(':')?;
    let ip = v4.parse::<Ipv4Addr>().ok()?;
    port(p).then_some(IpAddr::V4(ip))
}

/// A port, or RFC 7239's obfuscated port (`_abc`).
fn port(text: &str) -> bool {
    text.parse::<u16>().is_ok()
        || (text.len() > 1
            && text.starts_with('_')
            && text[1..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn nets(list: &[&str]) -> Vec<Cidr> {
        list.iter().map(|n| n.parse().unwrap()).collect()
    }

    fn headers(name: &'static str, lines: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for line in lines {
            h.append(name, HeaderValue::from_str(line).unwrap());
        }
        h
    }

    fn xff(peer: &str, trusted: &[&str], lines: &[&str]) -> IpAddr {
        let h = headers("x-forwarded-for", lines);
        client_ip(ip(peer), &h, &nets(trusted), RealIpHeader::XForwardedFor)
    }

    fn fwd(peer: &str, trusted: &[&str], lines: &[&str]) -> IpAddr {
        let h = headers("forwarded", lines);
        client_ip(ip(peer), &h, &nets(trusted), RealIpHeader::Forwarded)
    }

    #[test]
    fn an_untrusted_peers_forwarded_address_is_ignored() {
        assert_eq!(
            xff("203.0.113.7", &[], &["198.51.100.1"]),
            ip("203.0.113.7")
        );
        assert_eq!(
            xff("203.0.113.7", &["10.0.0.0/8"], &["198.51.100.1"]),
            ip("203.0.113.7")
        );
        assert_eq!(
            fwd("203.0.113.7", &["10.0.0.0/8"], &["for=198.51.100.1"]),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn a_trusted_peers_forwarded_address_is_the_client() {
        assert_eq!(
            xff("127.0.0.1", &["127.0.0.1"], &["198.51.100.1"]),
            ip("198.51.100.1")
        );
        assert_eq!(
            fwd(
                "127.0.0.1",
                &["127.0.0.1"],
                &["for=198.51.100.1;proto=https"]
            ),
            ip("198.51.100.1")
        );
        assert_eq!(
            xff("127.0.0.1", &["127.0.0.1"], &[]),
            ip("127.0.0.1"),
            "no header: the proxy itself"
        );
    }

    #[test]
    fn the_right_most_untrusted_hop_is_the_client() {
        // The client wrote "1.1.1.1" itself; proxies 10.0.0.2 and
        // 10.0.0.1 appended what they saw.
        let trusted = ["10.0.0.0/8"];
        assert_eq!(
            xff("10.0.0.1", &trusted, &["1.1.1.1, 198.51.100.9, 10.0.0.2"]),
            ip("198.51.100.9")
        );
        assert_eq!(
            xff(
                "10.0.0.1",
                &trusted,
                &["1.1.1.1", "198.51.100.9", "10.0.0.2"]
            ),
            ip("198.51.100.9"),
            "several lines are one list"
        );
        assert_eq!(
            fwd(
                "10.0.0.1",
                &trusted,
                &["for=1.1.1.1, for=\"[2001:db8::9]:4711\";proto=https, for=10.0.0.2"]
            ),
            ip("2001:db8::9")
        );
        assert_eq!(
            xff("10.0.0.1", &trusted, &["10.0.0.3, 10.0.0.2"]),
            ip("10.0.0.3"),
            "every hop trusted: the left-most"
        );
    }

    #[test]
    fn garbage_left_of_the_client_is_never_read() {
        assert_eq!(
            xff(
                "10.0.0.1",
                &["10.0.0.0/8"],
                &["not an address, 198.51.100.9"]
            ),
            ip("198.51.100.9")
        );
        assert_eq!(
            fwd(
                "10.0.0.1",
                &["10.0.0.0/8"],
                &["for=\"x\\\"y\", for=198.51.100.9"]
            ),
            ip("198.51.100.9")
        );
    }

    #[test]
    fn a_malformed_header_leaves_the_peer_as_the_client() {
        let peer = ip("10.0.0.1");
        let t = ["10.0.0.0/8"];
        for bad in [
            "198.51.100.9, nonsense",
            "198.51.100.9:notaport",
            "[2001:db8::1",
            "2001:db8::1]:80",
            "999.1.1.1",
            "198.51.100.9, 10.0.0.2; rm -rf",
        ] {
            assert_eq!(xff("10.0.0.1", &t, &[bad]), peer, "X-Forwarded-For: {bad}");
        }
        for bad in [
            "for=unknown",
            "for=_hidden",
            "proto=https",
            "for=\"198.51.100.9",
            "for=198.51.100.9;for=198.51.100.8",
            "for",
            "for=\"[2001:db8::1]:\"",
            "for=\"\\",
        ] {
            assert_eq!(fwd("10.0.0.1", &t, &[bad]), peer, "Forwarded: {bad}");
        }
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            HeaderValue::from_bytes(b"198.51.100.9\xff").unwrap(),
        );
        assert_eq!(
            client_ip(peer, &h, &nets(&t), RealIpHeader::XForwardedFor),
            peer,
            "not text"
        );
    }

    #[test]
    fn hops_may_carry_ports_and_empty_elements() {
        let t = ["10.0.0.0/8"];
        assert_eq!(
            xff("10.0.0.1", &t, &["198.51.100.9:5000"]),
            ip("198.51.100.9")
        );
        assert_eq!(
            xff("10.0.0.1", &t, &["[2001:db8::5]:80"]),
            ip("2001:db8::5")
        );
        assert_eq!(xff("10.0.0.1", &t, &["2001:db8::5"]), ip("2001:db8::5"));
        assert_eq!(
            xff("10.0.0.1", &t, &["198.51.100.9, ,"]),
            ip("198.51.100.9")
        );
        assert_eq!(
            fwd("10.0.0.1", &t, &["For=\"198.51.100.9:_port\""]),
            ip("198.51.100.9")
        );
    }

    #[test]
    fn only_the_named_header_is_read() {
        let mut h = headers("forwarded", &["for=198.51.100.1"]);
        h.append("x-forwarded-for", HeaderValue::from_static("198.51.100.2"));
        let t = nets(&["127.0.0.1"]);
        let peer = ip("127.0.0.1");
        assert_eq!(
            client_ip(peer, &h, &t, RealIpHeader::XForwardedFor),
            ip("198.51.100.2")
        );
        assert_eq!(
            client_ip(peer, &h, &t, RealIpHeader::Forwarded),
            ip("198.51.100.1")
        );
    }
}
