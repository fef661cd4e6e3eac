#![no_main]
//! Fuzz target `record`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("record", data);
});
