//! Move input typed by the user: SAN (lenient) or UCI.
