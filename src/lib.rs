//! pdnkit: read, replay, check and convert draughts game records (PDN).
//!
//! Layers, each in its own module: [`board`] (geometry), [`position`]
//! (pieces, FEN), [`rules`] (legal moves).
#![forbid(unsafe_code)]

pub mod board;
pub mod diag;
pub mod diagram;
pub mod draw;
pub mod export;
pub mod infer;
pub mod notation;
pub mod pdn;
pub mod position;
pub mod replay;
pub mod rules;
pub mod stats;
pub mod variant;
