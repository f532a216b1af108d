//! fumen
