//! Colour themes: the built-in ones from `themes/` and the user's own.
