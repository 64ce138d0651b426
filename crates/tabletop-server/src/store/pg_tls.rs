//! How the connections to PostgreSQL are made: in the clear, or over TLS
//! when the URL says `sslmode=require`. Over TLS the server's certificate
//! is checked, against the operator's certificate authorities
//! (`--database-ca FILE`, PEM) or else the system's, and must name the
//! URL's host. That is stricter than libpq's `require`, which encrypts
//! without checking who answers: a connection worth encrypting is one
//! that could be intercepted, and then it must be authenticated too.
//! `prefer` (libpq's default, also when the URL names no `sslmode`) and
//! `disable` connect in the clear, as before TLS was built in.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use postgres::config::SslMode;
use postgres::{Client, NoTls};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::{ClientConfig, RootCertStore};
use tokio_postgres_rustls::MakeRustlsConnect;

/// Why the TLS set-up of the PostgreSQL connections failed, before any
/// connection was tried.
#[derive(Debug, thiserror::Error)]
pub enum TlsSetupError {
    /// The URL does not parse.
    #[error("the database URL: {0}")]
    Url(#[source] postgres::Error),
    /// A CA file was given for connections in the clear.
    #[error(
        "--database-ca is for connections over TLS: add `sslmode=require` to the database URL \
         (`postgres://USER:PASSWORD@HOST:PORT/NAME?sslmode=require`)"
    )]
    CaWithoutTls,
    /// The CA file could not be read as PEM certificates.
    #[error("--database-ca {path}: {reason}")]
    CaFile {
        /// The file.
        path: PathBuf,
        /// What was wrong with it.
        reason: String,
    },
    /// No certificate authority to check the server against.
    #[error(
        "sslmode=require: the system has no certificate authorities ({0}); \
         give the one that signs the database's certificate with --database-ca FILE"
    )]
    NoRoots(String),
    /// rustls refused the configuration.
    #[error("the TLS set-up: {0}")]
    Rustls(#[from] rustls::Error),
}

/// The database and how to reach it.
pub(super) struct Database {
    url: String,
    tls: Option<MakeRustlsConnect>,
}

impl Database {
    /// The database at `url`, over TLS if it says `sslmode=require`,
    /// checked against `ca` (PEM) or the system's authorities.
    pub(super) fn new(url: &str, ca: Option<&Path>) -> Result<Database, TlsSetupError> {
        let config: postgres::Config = url.parse().map_err(TlsSetupError::Url)?;
        let tls = match (config.get_ssl_mode(), ca) {
            (SslMode::Require, ca) => Some(MakeRustlsConnect::new(client_config(roots(ca)?)?)),
            (_, Some(_)) => return Err(TlsSetupError::CaWithoutTls),
            (_, None) => None,
        };
        Ok(Database {
            url: url.to_owned(),
            tls,
        })
    }

    /// A new connection.
    pub(super) fn connect(&self) -> Result<Client, postgres::Error> {
        match &self.tls {
            None => Client::connect(&self.url, NoTls),
            Some(tls) => Client::connect(&self.url, tls.clone()),
        }
    }
}

// ring, not rustls' default aws-lc-rs (a CMake build of C): rustls 0.23.48
// deprecates ring's provider only for its lack of post-quantum key
// exchange, which a database link does not need yet.
#[allow(deprecated)]
fn client_config(roots: RootCertStore) -> Result<ClientConfig, TlsSetupError> {
    Ok(
        ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()?
            .with_root_certificates(roots)
            .with_no_client_auth(),
    )
}

/// The authorities of `ca`, else the system's.
fn roots(ca: Option<&Path>) -> Result<RootCertStore, TlsSetupError> {
    let mut roots = RootCertStore::empty();
    match ca {
        Some(path) => {
            let bad = |reason: String| TlsSetupError::CaFile {
                path: path.to_owned(),
                reason,
            };
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| bad(e.to_string()))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| bad(e.to_string()))?;
            if certs.is_empty() {
                return Err(bad("no PEM certificate in it".into()));
            }
            for cert in certs {
                roots.add(cert).map_err(|e| bad(e.to_string()))?;
            }
        }
        None => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _) = roots.add_parsable_certificates(found.certs);
            if added == 0 {
                let why = found
                    .errors
                    .first()
                    .map_or_else(|| "none found".to_owned(), ToString::to_string);
                return Err(TlsSetupError::NoRoots(why));
            }
        }
    }
    Ok(roots)
}
