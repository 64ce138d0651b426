//! The prayer to the gods.
