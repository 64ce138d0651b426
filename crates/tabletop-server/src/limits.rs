//! What one client may use: requests a second (a token bucket per
//! client), and places counted per client and in all ([`Places`]):
//! WebSockets open, and TCP connections (per peer address: behind a
//! proxy, a client's connections end at the proxy); and turns to rebuild
//! a match outside memory ([`Rebuilds`]). Clients are
//! [`ClientKey`]s, computed by the HTTP layer from the peer and, behind a
//! trusted proxy, its forwarded address. Written here rather than taken
//! from a crate: tower's `RateLimit` is one bucket for every client, and
//! a per-client bucket is a few lines.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{AcquireError, OwnedSemaphorePermit, Semaphore};

use crate::client::ClientKey;
use crate::config::HttpLimits;

/// What each client may use: its requests a second, its WebSockets and
/// its connections.
pub struct Gate {
    /// Requests a second per client.
    pub requests: RateLimiter,
    /// WebSockets open.
    pub sockets: Arc<Places>,
    /// TCP connections open.
    pub connections: Arc<Places>,
    /// Rebuilds of matches outside memory.
    pub rebuilds: Rebuilds,
}

impl Gate {
    /// The gate of the limits `http`.
    pub fn new(http: &HttpLimits) -> Gate {
        Gate {
            requests: RateLimiter::new(http.client_rate, http.client_burst),
            sockets: Arc::new(Places::new(http.ws_per_client, http.ws_total)),
            connections: Arc::new(Places::new(
                http.max_connections_per_address,
                http.max_connections,
            )),
            rebuilds: Rebuilds::default(),
        }
    }
}

/// Rebuilds of matches outside memory running at once, all clients
/// together (`src/archive.rs`): the other core stays free for play.
pub const REBUILDS: usize = 1;

/// Who may rebuild a match outside memory now: [`REBUILDS`] at once in
/// all, one at a time per client.
pub struct Rebuilds {
    all: Arc<Semaphore>,
    /// Each client's own turn; entries go when nobody waits on them.
    clients: Mutex<HashMap<ClientKey, Arc<Semaphore>>>,
}

/// A turn to rebuild: the client's, then one of the [`REBUILDS`]; held
/// until dropped.
pub struct Turn {
    _all: OwnedSemaphorePermit,
    _client: OwnedSemaphorePermit,
}

impl Default for Rebuilds {
    fn default() -> Rebuilds {
        Rebuilds {
            all: Arc::new(Semaphore::new(REBUILDS)),
            clients: Mutex::default(),
        }
    }
}

impl Rebuilds {
    /// Waits for `client`'s turn, then for one of the [`REBUILDS`] (an
    /// error only if the queue was closed, which nothing does).
    pub async fn turn(&self, client: ClientKey) -> Result<Turn, AcquireError> {
        let own = {
            let mut clients = self.clients.lock().unwrap_or_else(|p| p.into_inner());
            // A semaphore held only by the map has nobody waiting on it.
            clients.retain(|_, s| Arc::strong_count(s) > 1);
            clients
                .entry(client)
                .or_insert_with(|| Arc::new(Semaphore::new(1)))
                .clone()
        };
        let client = own.acquire_owned().await?;
        let all = self.all.clone().acquire_owned().await?;
        Ok(Turn {
            _all: all,
            _client: client,
        })
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
    buckets: Mutex<HashMap<ClientKey, Bucket>>,
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
    pub fn admit(&self, client: ClientKey) -> Result<(), Duration> {
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

/// Places counted per client and in all (WebSockets, connections): one
/// lock checks and takes a place, so that clients racing for the last
/// ones never get more than the limits.
pub struct Places {
    per_client: usize,
    total: usize,
    open: Mutex<(usize, HashMap<ClientKey, usize>)>,
}

/// Which limit refused a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// As many places are taken as there are in all.
    Total,
    /// The client holds as many as it may.
    Client,
}

/// One place taken; dropping it frees it.
pub struct Ticket {
    places: Arc<Places>,
    client: Option<ClientKey>,
}

impl Places {
    /// At most `per_client` places a client and `total` in all (0: no
    /// limit).
    pub fn new(per_client: usize, total: usize) -> Places {
        Places {
            per_client,
            total,
            open: Mutex::new((0, HashMap::new())),
        }
    }

    /// A place for `client`, counted in all and as the client's (`None`:
    /// in all only, for a proxy that carries many clients), or which
    /// limit is reached.
    pub fn enter(self: &Arc<Self>, client: Option<ClientKey>) -> Result<Ticket, Full> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if self.total != 0 && open.0 >= self.total {
            return Err(Full::Total);
        }
        if let Some(key) = client {
            let mine = open.1.get(&key).copied().unwrap_or(0);
            if self.per_client != 0 && mine >= self.per_client {
                return Err(Full::Client);
            }
            open.1.insert(key, mine + 1);
        }
        open.0 += 1;
        Ok(Ticket {
            places: self.clone(),
            client,
        })
    }

    /// Places taken now.
    pub fn open(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).0
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut open = self.places.open.lock().unwrap_or_else(|p| p.into_inner());
        open.0 = open.0.saturating_sub(1);
        if let Some(key) = self.client {
            if let Some(n) = open.1.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    open.1.remove(&key);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr};

    use super::*;

    fn client(last: u8) -> ClientKey {
        ClientKey::of(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
    }

    #[test]
    fn a_bucket_admits_its_burst_then_its_rate() {
        let limiter = RateLimiter::new(1, 3);
        let c = client(1);
        for _ in 0..3 {
            assert!(limiter.admit(c).is_ok());
        }
        let wait = limiter.admit(c).expect_err("the burst is spent");
        assert!(wait > Duration::ZERO && wait <= Duration::from_secs(1));
        assert!(
            limiter.admit(client(2)).is_ok(),
            "another client has its own"
        );
    }

    #[test]
    fn a_ticket_frees_its_place_when_dropped() {
        let places = Arc::new(Places::new(1, 2));
        let t = places.enter(Some(client(1))).unwrap();
        assert_eq!(places.enter(Some(client(1))).err(), Some(Full::Client));
        let _u = places.enter(Some(client(2))).unwrap();
        assert_eq!(places.enter(Some(client(3))).err(), Some(Full::Total));
        drop(t);
        assert_eq!(places.open(), 1);
        assert!(places.enter(Some(client(3))).is_ok());
    }

    #[test]
    fn a_place_counted_in_all_only_passes_the_clients_limit() {
        let places = Arc::new(Places::new(1, 3));
        let _a = places.enter(Some(client(1))).unwrap();
        let _b = places.enter(None).unwrap();
        let _c = places.enter(None).unwrap();
        assert_eq!(places.enter(None).err(), Some(Full::Total));
    }

    #[test]
    fn places_raced_for_are_never_more_than_the_limit() {
        let places = Arc::new(Places::new(5, 0));
        let taken: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..16)
                .map(|_| s.spawn(|| places.enter(Some(client(1))).ok()))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(taken.iter().flatten().count(), 5);
    }
}
