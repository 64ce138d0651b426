//! What one client may use: requests a second (a token bucket per IP
//! address), WebSockets open (per address and in all). A client is its IP
//! address as the listener accepted it ([`ClientAddr`]); behind a reverse
//! proxy every client is the proxy, so its limits must be set for all.
//! Written here rather than taken from a crate: tower's `RateLimit` is one
//! bucket for every client, and a per-address bucket is a few lines.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::config::HttpLimits;

/// The peer address of a request's connection (put in the request's
/// extensions by the listener; a request without one, as in tests through
/// the router alone, is the unspecified address).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientAddr(pub IpAddr);

impl ClientAddr {
    /// The client of a match rebuilt from the store, or of a request that
    /// came without an address.
    pub const UNKNOWN: ClientAddr = ClientAddr(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
}

/// What each client may use: its requests a second and its WebSockets.
pub struct Gate {
    /// Requests a second per client.
    pub requests: RateLimiter,
    /// WebSockets open.
    pub sockets: Arc<SocketGate>,
}

impl Gate {
    /// The gate of the limits `http`.
    pub fn new(http: &HttpLimits) -> Gate {
        Gate {
            requests: RateLimiter::new(http.client_rate, http.client_burst),
            sockets: Arc::new(SocketGate::new(http.ws_per_client, http.ws_total)),
        }
    }
}

/// A token bucket: `rate` a second, at most `burst` saved.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn full(burst: u32) -> Bucket {
        Bucket {
            tokens: f64::from(burst),
            at: Instant::now(),
        }
    }

    /// Takes one token if there is one; otherwise how long until there is.
    pub fn take(&mut self, rate: u32, burst: u32) -> Result<(), Duration> {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * f64::from(rate);
        self.tokens = (self.tokens + refill).min(f64::from(burst.max(1)));
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - self.tokens) / f64::from(rate.max(1)),
            ))
        }
    }

    fn is_full(&self, rate: u32, burst: u32) -> bool {
        let refill = self.at.elapsed().as_secs_f64() * f64::from(rate);
        self.tokens + refill >= f64::from(burst)
    }
}

/// A token bucket per client.
pub struct RateLimiter {
    rate: u32,
    burst: u32,
    buckets: Mutex<HashMap<ClientAddr, Bucket>>,
}

impl RateLimiter {
    /// `rate` requests a second per client (0: no limit), `burst` above it.
    pub fn new(rate: u32, burst: u32) -> RateLimiter {
        RateLimiter {
            rate,
            burst: burst.max(1),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Admits one request of `client`, or says when to come back.
    pub fn admit(&self, client: ClientAddr) -> Result<(), Duration> {
        if self.rate == 0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        buckets
            .entry(client)
            .or_insert_with(|| Bucket::full(self.burst))
            .take(self.rate, self.burst)
    }

    /// Forgets the clients whose bucket refilled (they are as new), so the
    /// map holds only the clients active lately.
    pub fn prune(&self) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        buckets.retain(|_, b| !b.is_full(self.rate, self.burst));
    }
}

/// Counts the WebSockets open, per client and in all.
pub struct SocketGate {
    per_client: usize,
    total: usize,
    open: Mutex<(usize, HashMap<ClientAddr, usize>)>,
}

/// One open WebSocket; closing it (dropping this) frees its place.
pub struct SocketTicket {
    gate: Arc<SocketGate>,
    client: ClientAddr,
}

impl SocketGate {
    /// At most `per_client` sockets a client and `total` in all (0: none).
    pub fn new(per_client: usize, total: usize) -> SocketGate {
        SocketGate {
            per_client,
            total,
            open: Mutex::new((0, HashMap::new())),
        }
    }

    /// A place for one more socket of `client`, or which limit is reached.
    pub fn enter(self: &Arc<Self>, client: ClientAddr) -> Result<SocketTicket, &'static str> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if self.total != 0 && open.0 >= self.total {
            return Err("the server has as many WebSockets open as it takes");
        }
        let mine = open.1.get(&client).copied().unwrap_or(0);
        if self.per_client != 0 && mine >= self.per_client {
            return Err("this client has as many WebSockets open as it may");
        }
        open.0 += 1;
        open.1.insert(client, mine + 1);
        Ok(SocketTicket {
            gate: self.clone(),
            client,
        })
    }

    /// WebSockets open now.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).0
    }
}

impl Drop for SocketTicket {
    fn drop(&mut self) {
        let mut open = self.gate.open.lock().unwrap_or_else(|p| p.into_inner());
        open.0 = open.0.saturating_sub(1);
        if let Some(n) = open.1.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.1.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_admits_its_burst_then_its_rate() {
        let limiter = RateLimiter::new(1, 3);
        let c = ClientAddr(IpAddr::V4(Ipv4Addr::LOCALHOST));
        for _ in 0..3 {
            assert!(limiter.admit(c).is_ok());
        }
        let wait = limiter.admit(c).expect_err("the burst is spent");
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(1));
        let other = ClientAddr(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)));
        assert!(limiter.admit(other).is_ok(), "another client has its own");
    }

    #[test]
    fn a_socket_ticket_frees_its_place_when_dropped() {
        let gate = Arc::new(SocketGate::new(1, 2));
        let a = ClientAddr(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let b = ClientAddr(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)));
        let c = ClientAddr(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3)));
        let t = gate.enter(a).unwrap();
        assert!(gate.enter(a).is_err(), "one per client");
        let _u = gate.enter(b).unwrap();
        assert!(gate.enter(c).is_err(), "two in all");
        drop(t);
        assert_eq!(gate.open(), 1);
        assert!(gate.enter(c).is_ok());
    }
}
