//! Where the programs keep what they write when no path is given: the
//! terminal's records, the server's database. Never the working directory,
//! which is often a checkout.

use std::ffi::OsString;
use std::path::PathBuf;

/// `$XDG_DATA_HOME/tabletop`, else `~/.local/share/tabletop`; `None` when
/// neither variable names an absolute directory.
pub fn data_dir() -> Option<PathBuf> {
    data_dir_from(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

/// [`data_dir`] from the values of `XDG_DATA_HOME` and `HOME`; relative
/// values are ignored, as the XDG specification asks.
pub fn data_dir_from(xdg_data_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let absolute = |v: Option<OsString>| v.map(PathBuf::from).filter(|p| p.is_absolute());
    absolute(xdg_data_home)
        .or_else(|| absolute(home).map(|h| h.join(".local").join("share")))
        .map(|d| d.join("tabletop"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_goes_to_the_xdg_data_folder_or_the_home_share() {
        let os = |s: &str| Some(OsString::from(s));
        assert_eq!(
            data_dir_from(os("/data"), os("/home/a")),
            Some(PathBuf::from("/data/tabletop"))
        );
        assert_eq!(
            data_dir_from(None, os("/home/a")),
            Some(PathBuf::from("/home/a/.local/share/tabletop"))
        );
        // A relative XDG_DATA_HOME is ignored (the XDG rule), and nothing
        // relative (the working directory, a checkout) is ever chosen.
        assert_eq!(
            data_dir_from(os("data"), os("/home/a")),
            Some(PathBuf::from("/home/a/.local/share/tabletop"))
        );
        assert_eq!(data_dir_from(os("data"), os("home")), None);
        assert_eq!(data_dir_from(None, None), None);
    }
}
