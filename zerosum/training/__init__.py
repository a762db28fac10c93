"""zerosum.training: see the README for what lands here."""
