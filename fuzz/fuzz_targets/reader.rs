//! Any bytes through the streaming reader, in small reads and with a small
//! game limit: never a panic, games numbered in order, every finding placed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdnkit::pdn::{Locator, Reader};
use std::io::Read;

/// Hands out the input a few bytes at a time.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(buf.len()).min(self.1);
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let step = 1 + usize::from(data.first().copied().unwrap_or(0) % 7);
    let mut r = Reader::new(Trickle(data, step)).max_game_bytes(512);
    let mut index = 0;
    while let Ok(Some(g)) = r.next_game() {
        index += 1;
        assert_eq!(g.index(), index);
        let mut loc = Locator::new(&g);
        for d in g.diagnostics() {
            let _ = loc.locate(d.span.start);
            let _ = g.snippet(&d.span, 40);
        }
        for t in g.tags() {
            let _ = g.tag_value(t);
        }
    }
});
