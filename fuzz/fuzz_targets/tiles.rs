#![no_main]
//! Fuzz target `tiles`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("tiles", data);
});
