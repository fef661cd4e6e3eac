#![no_main]
//! Fuzz target `halves`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("halves", data);
});
