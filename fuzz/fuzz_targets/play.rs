#![no_main]
//! Fuzz target `play`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("play", data);
});
