#![no_main]
//! Fuzz target `options`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("options", data);
});
