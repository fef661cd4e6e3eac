#![no_main]
//! Fuzz target `ruleset`: see `referee::fuzzing`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::fuzzing::run("ruleset", data);
});
