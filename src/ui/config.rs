//! The configuration file and remembered choices.
