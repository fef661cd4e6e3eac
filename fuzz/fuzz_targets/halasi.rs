#![no_main]
//! Fuzz target `halasi`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("halasi", data);
});
