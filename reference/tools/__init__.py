"""The command line, audits, conformance, benchmarks and experiments."""
