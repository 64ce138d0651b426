//! The layout of the pinned example in the rules document.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::Formatter;
use stratego_core::StrategoObservationStruct;

/// Writes JSON with one top-level field a line and one element of a
/// top-level list a line, the rest compact: how the rules document shows
/// the pinned example.
#[derive(Default)]
struct Layout {
    /// Per open container: whether it is laid out a line per item, and
    /// whether it has an item yet.
    open: Vec<(bool, bool)>,
}

impl Layout {
    fn begin<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        array: bool,
        bracket: &[u8],
    ) -> io::Result<()> {
        let level = self.open.len() + 1;
        self.open.push((level == 1 || (level == 2 && array), false));
        w.write_all(bracket)
    }

    fn end<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        if let Some((true, true)) = self.open.pop() {
            w.write_all(b"\n")?;
            w.write_all(&b"  ".repeat(self.open.len()))?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        let level = self.open.len();
        match self.open.last_mut() {
            Some((true, has)) => {
                *has = true;
                w.write_all(b"\n")?;
                w.write_all(&b"  ".repeat(level))
            }
            _ => Ok(()),
        }
    }
}

impl Formatter for Layout {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, true, b"[")
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"]")
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.begin(w, false, b"{")
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.end(w, b"}")
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        let top = self.open.len() == 1;
        w.write_all(if top { b": " } else { b":" })
    }
}

pub fn layout(s: &StrategoObservationStruct) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Layout::default());
    s.serialize(&mut ser)
        .expect("an observation struct serialises");
    String::from_utf8(out).expect("JSON is UTF-8")
}
