//! Perft speed from the start position of each board, in one run.
//!
//! `cargo bench --bench perft` reports leaf nodes per second (criterion's
//! "thrpt" in elements/s) for each variant.
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pdnkit::variant::Variant;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    for (v, depth) in [
        (Variant::Brazilian, 8),
        (Variant::International, 7),
        (Variant::Canadian, 6),
        // The 64-square board (issue 64): its leaves per second against
        // Brazilian's at a like-sized depth (931,312 and 907,830 leaves).
        (Variant::Turkish, 6),
    ] {
        let pos = v.start();
        let nodes = pos.perft(depth);
        g.throughput(Throughput::Elements(nodes));
        g.bench_function(format!("{v}-depth{depth}"), |b| {
            b.iter(|| std::hint::black_box(&pos).perft(depth))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
