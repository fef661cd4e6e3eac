//! Halasi (`spec/halasi.md`): the domino and territory game of Elyse M. Grasso's Shayana
//! encyclopedia, as the spec reconstructs it.

pub mod geometry;
pub mod layout;
pub mod markings;
pub mod routes;
pub mod run;
pub mod score;
pub mod settings;
pub mod tiles;
pub mod violation;

pub use settings::SCHEMA;

#[cfg(test)]
mod tests;
