//! Query strings read into typed parameters, decoded by the URL form
//! encoding's rules (`serde_urlencoded`, axum's own): a missing or
//! malformed parameter is a typed 400 that says what the route expects
//! (`?game=SPEC&seed=N`). A malformed percent
//! escape stays as it was written, as browsers and the WHATWG URL
//! standard leave it, so the value is refused for what it then names.

use serde::de::DeserializeOwned;

use crate::http::error::ApiError;

/// The parameters of `query` (none: an empty query); `expected` is the
/// route's query as its error shows it.
pub(crate) fn params<T: DeserializeOwned>(
    query: Option<&str>,
    expected: &str,
) -> Result<T, ApiError> {
    serde_urlencoded::from_str(query.unwrap_or(""))
        .map_err(|e| ApiError::BadRequest(format!("query: {e}; expected {expected}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Asked {
        game: String,
        seed: u64,
    }

    const EXPECTED: &str = "?game=SPEC&seed=N";

    #[test]
    fn query_parameters_are_percent_decoded_typed_and_required() {
        let asked: Asked = params(
            Some("x=1&game=stratego%28variant%3Dclassic%29&seed=7"),
            EXPECTED,
        )
        .unwrap();
        assert_eq!(
            asked,
            Asked {
                game: "stratego(variant=classic)".into(),
                seed: 7
            }
        );
        for bad in [None, Some("game=x"), Some("game=x&seed=-1"), Some("seed=1")] {
            let e = params::<Asked>(bad, EXPECTED).unwrap_err().to_string();
            assert!(e.ends_with("expected ?game=SPEC&seed=N"), "{bad:?}: {e}");
        }
    }
}
