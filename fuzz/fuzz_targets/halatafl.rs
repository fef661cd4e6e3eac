#![no_main]
//! Fuzz target `halatafl`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("halatafl", data);
});
