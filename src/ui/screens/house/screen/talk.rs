//! Talking to a Bughouse partner: the messages on keys after `m`, in the
//! words FICS players use, and a message typed in full.

use super::*;

/// Partner messages by key, after `m` (Bughouse), in the words FICS
/// bughouse players and bots use: `++n` a knight is very good for me, `--q`
/// don't give a queen (it would hurt me), `x` forget those.
pub const MESSAGES: [(char, &str); 19] = [
    ('p', "++p"),
    ('n', "++n"),
    ('b', "++b"),
    ('r', "++r"),
    ('q', "++q"),
    ('P', "--p"),
    ('N', "--n"),
    ('B', "--b"),
    ('R', "--r"),
    ('Q', "--q"),
    ('s', "sit"),
    ('g', "go"),
    ('f', "fast"),
    ('F', "flag"),
    ('x', "x"),
    ('t', "+trades"),
    ('T', "-trades"),
    ('h', "help! I'm in danger"),
    ('m', "mate soon"),
];

impl House<'_> {
    /// The key after `m`: the message it stands for goes to the partner.
    pub(super) fn message_key(&mut self, k: KeyEvent, now: Instant) {
        if matches!(k.code, KeyCode::Char('\'') | KeyCode::Enter) {
            self.s.message_text = Some(String::new());
            return self.message_prompt();
        }
        if let KeyCode::Char(c) = k.code
            && let Some((_, text)) = MESSAGES.iter().find(|(key, _)| *key == c)
        {
            self.send_message(text, now);
        } else {
            self.ui.info("No message sent.");
        }
    }

    /// Sends `text` to the partner of the person playing.
    pub(super) fn send_message(&mut self, text: &str, now: Instant) {
        let seat = self
            .s
            .live
            .as_ref()
            .and_then(|l| l.human_seats().first().copied());
        if let (Some(l), Some(s)) = (self.s.live.as_deref_mut(), seat) {
            l.say(s, text);
            let msg = crate::engine::partner::PartnerMsg::parse(text);
            // "sit (don't move)", not "sit (sit (don't move))".
            let said = match msg {
                crate::engine::partner::PartnerMsg::Text(_) => text.to_string(),
                m => {
                    let words = m.describe();
                    if words.starts_with(text.trim()) {
                        words
                    } else {
                        format!("{text} ({words})")
                    }
                }
            };
            self.ui.info(format!("To your partner: {said}"));
            self.flush_live(now);
        }
    }

    pub(super) fn message_prompt(&mut self) {
        let text = self.s.message_text.clone().unwrap_or_default();
        self.ui.info(format!(
            "To your partner: {text}▏  (e.g. ++n, --q, sit, go, x, fast, flag; Enter sends, Esc cancels)"
        ));
    }

    /// A key while a message is typed.
    pub(super) fn message_text_key(&mut self, k: KeyEvent, now: Instant) {
        let Some(text) = self.s.message_text.as_mut() else {
            return;
        };
        match k.code {
            KeyCode::Enter => {
                let text = self.s.message_text.take().unwrap_or_default();
                if text.trim().is_empty() {
                    self.ui.info("No message sent.");
                } else {
                    self.send_message(text.trim(), now);
                }
                return;
            }
            KeyCode::Esc => {
                self.s.message_text = None;
                self.ui.info("No message sent.");
                return;
            }
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char(c) if text.chars().count() < 80 => text.push(c),
            _ => {}
        }
        self.message_prompt();
    }

    /// `m`: the next key picks a message for the partner (Bughouse).
    pub(super) fn start_message(&mut self) {
        let bughouse = self.s.live.as_ref().is_some_and(|l| l.boards() == 2);
        if bughouse
            && self
                .s
                .live
                .as_ref()
                .is_some_and(|l| !l.human_seats().is_empty())
        {
            self.s.message = true;
            self.ui.info("Message: n b r q p = ++ (I need it), N B R Q P = -- (don't give it), s sit, g go, f fast, F flag, x forget it, t/T trades good/bad, ' type one");
        } else {
            self.ui.info("Messages are for Bughouse partners.");
        }
    }
}
