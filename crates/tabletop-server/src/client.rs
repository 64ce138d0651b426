//! Who a client is, for the limits: the peer of a connection ([`Peer`]),
//! the proxies whose word on the client's address is taken ([`Cidr`],
//! [`RealIpHeader`]), and the one value every limit counts by
//! ([`ClientKey`]). The HTTP layer computes a request's key once
//! (`http/forwarded.rs`); nothing below it reads an address.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// The address of a connection's peer, as the listener accepted it (put
/// in each request's extensions by [`crate::listen::serve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Peer(pub IpAddr);

/// The client a limit counts: an IPv4 address, or the /64 network of an
/// IPv6 address (one host is routinely given a whole /64, so its
/// addresses are one client). An IPv4 address written as IPv6
/// (`::ffff:192.0.2.1`, as a dual-stack listener accepts it) is that IPv4
/// address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The client of a request that came without an address (through the
    /// router alone, as in tests).
    pub const UNKNOWN: ClientKey = ClientKey(IpAddr::V4(Ipv4Addr::UNSPECIFIED));

    /// The client of address `ip`.
    pub fn of(ip: IpAddr) -> ClientKey {
        match ip.to_canonical() {
            IpAddr::V4(v4) => ClientKey(IpAddr::V4(v4)),
            IpAddr::V6(v6) => {
                let network = u128::from(v6) & !(u128::MAX >> 64);
                ClientKey(IpAddr::V6(Ipv6Addr::from(network)))
            }
        }
    }
}

impl fmt::Display for ClientKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
        }
    }
}

/// A network, `10.0.0.0/8` or `2001:db8::/32`; a bare address is the
/// network of that address alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    network: IpAddr,
    prefix: u8,
}

/// Why a network does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CidrError {
    /// The address part is no IP address.
    #[error("{0:?} is not an IP address (expected ADDRESS or ADDRESS/PREFIX, as 10.0.0.0/8)")]
    Address(String),
    /// The prefix length is no number, or longer than the address.
    #[error("{0:?} is not a prefix length for this address (0-32 for IPv4, 0-128 for IPv6)")]
    Prefix(String),
    /// Bits set after the prefix: `10.1.2.3/8` most likely means another
    /// network than the operator thinks.
    #[error("{given} has bits set past its prefix: write its network, {network}")]
    HostBits {
        /// What was written.
        given: String,
        /// The network it lies in.
        network: String,
    },
}

/// `bits`, an address of `width` bits, with the bits after `prefix`
/// cleared.
fn masked(bits: u128, width: u8, prefix: u8) -> u128 {
    let host = u32::from(width) - u32::from(prefix.min(width));
    if host >= 128 {
        0
    } else {
        bits & !((1u128 << host) - 1)
    }
}

fn bits_of(ip: IpAddr) -> (u128, u8) {
    match ip {
        IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
        IpAddr::V6(v6) => (u128::from(v6), 128),
    }
}

impl Cidr {
    /// Whether `ip` lies in this network (an IPv4 address written as IPv6
    /// is compared as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        if ip.is_ipv4() != self.network.is_ipv4() {
            return false;
        }
        let (bits, width) = bits_of(ip);
        masked(bits, width, self.prefix) == bits_of(self.network).0
    }
}

impl FromStr for Cidr {
    type Err = CidrError;

    fn from_str(text: &str) -> Result<Cidr, CidrError> {
        let text = text.trim();
        let (address, prefix) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text, None),
        };
        let network: IpAddr = address
            .parse::<IpAddr>()
            .map_err(|_| CidrError::Address(address.to_owned()))?
            .to_canonical();
        let (bits, width) = bits_of(network);
        let prefix = match prefix {
            None => width,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|&n| n <= width)
                .ok_or_else(|| CidrError::Prefix(p.to_owned()))?,
        };
        let kept = masked(bits, width, prefix);
        if kept != bits {
            let network = match network {
                IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::from(kept as u32)),
                IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::from(kept)),
            };
            return Err(CidrError::HostBits {
                given: text.to_owned(),
                network: format!("{network}/{prefix}"),
            });
        }
        Ok(Cidr { network, prefix })
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.network, self.prefix)
    }
}

/// The header a trusted proxy writes the client's address in (nginx's
/// `real_ip_header`). One only: a proxy that appends to one passes the
/// other on as the client wrote it, so reading both would take a
/// client's word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RealIpHeader {
    /// `X-Forwarded-For: client, proxy1, proxy2` (nginx's
    /// `$proxy_add_x_forwarded_for`, HAProxy's `option forwardfor`).
    #[default]
    XForwardedFor,
    /// RFC 7239's `Forwarded: for=client, for=proxy1`.
    Forwarded,
}

impl FromStr for RealIpHeader {
    type Err = String;

    fn from_str(text: &str) -> Result<RealIpHeader, String> {
        match text.to_ascii_lowercase().as_str() {
            "x-forwarded-for" => Ok(RealIpHeader::XForwardedFor),
            "forwarded" => Ok(RealIpHeader::Forwarded),
            _ => Err(format!("{text:?}: expected x-forwarded-for or forwarded")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_addresses_of_one_slash_64_are_one_client() {
        let a = ClientKey::of(ip("2001:db8:1:2:aaaa::1"));
        let b = ClientKey::of(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"));
        let other = ClientKey::of(ip("2001:db8:1:3::1"));
        assert_eq!(a, b);
        assert_ne!(a, other);
        assert_eq!(a.to_string(), "2001:db8:1:2::/64");
    }

    #[test]
    fn ipv4_addresses_are_clients_each_even_written_as_ipv6() {
        let a = ClientKey::of(ip("192.0.2.1"));
        assert_ne!(a, ClientKey::of(ip("192.0.2.2")));
        assert_eq!(a, ClientKey::of(ip("::ffff:192.0.2.1")));
        assert_ne!(
            ClientKey::of(ip("::ffff:192.0.2.1")),
            ClientKey::of(ip("::ffff:192.0.2.2")),
            "not all IPv4 clients in one /64 of mapped addresses"
        );
        assert_eq!(a.to_string(), "192.0.2.1");
    }

    #[test]
    fn a_network_contains_its_addresses_only() {
        let net: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(net.contains(ip("10.200.3.4")));
        assert!(net.contains(ip("::ffff:10.0.0.1")));
        assert!(!net.contains(ip("11.0.0.1")));
        assert!(!net.contains(ip("::a00:1")), "IPv6 is not IPv4");
        let v6: Cidr = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:ffff::1")));
        assert!(!v6.contains(ip("2001:db9::1")));
        let one: Cidr = "127.0.0.1".parse().unwrap();
        assert!(one.contains(ip("127.0.0.1")) && !one.contains(ip("127.0.0.2")));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("203.0.113.9")));
        assert_eq!(one.to_string(), "127.0.0.1/32");
    }

    #[test]
    fn a_malformed_network_is_refused_with_its_reason() {
        assert!(matches!(
            "ten/8".parse::<Cidr>(),
            Err(CidrError::Address(_))
        ));
        assert!(matches!(
            "10.0.0.0/33".parse::<Cidr>(),
            Err(CidrError::Prefix(_))
        ));
        assert!(matches!(
            "::/129".parse::<Cidr>(),
            Err(CidrError::Prefix(_))
        ));
        assert!(matches!(
            "10.0.0.0/x".parse::<Cidr>(),
            Err(CidrError::Prefix(_))
        ));
        match "10.1.2.3/8".parse::<Cidr>() {
            Err(CidrError::HostBits { network, .. }) => assert_eq!(network, "10.0.0.0/8"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_real_ip_header_is_named_as_nginx_names_it() {
        assert_eq!("X-Forwarded-For".parse(), Ok(RealIpHeader::XForwardedFor));
        assert_eq!("forwarded".parse(), Ok(RealIpHeader::Forwarded));
        assert!("x-real-ip".parse::<RealIpHeader>().is_err());
    }
}
