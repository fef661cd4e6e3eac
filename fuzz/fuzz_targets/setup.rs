#![no_main]
//! Fuzz target `setup`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("setup", data);
});
