//! Whole random games checked at every step.
