"""zerosum.evaluation: see the README for what lands here."""
