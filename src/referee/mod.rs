//! Replay of a record into a ruling.
