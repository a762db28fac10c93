"""zerosum.search: see the README for what lands here."""
