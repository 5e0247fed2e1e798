"""Fuzzing and hostile-input helpers shared by the tests/fuzz/test_fuzz_*, test_hostile_* and corpus tests."""
