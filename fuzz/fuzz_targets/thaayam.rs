#![no_main]
//! Fuzz target `thaayam`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("thaayam", data);
});
