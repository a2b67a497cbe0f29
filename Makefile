# SPDX-License-Identifier: GPL-2.0-only
# Thin front end: every target calls `cargo xtask`, which installs what it needs.
# When invoked by Kbuild (`make -C $KDIR M=$PWD`), the top-level Kbuild file is used instead.

CARGO ?= cargo

.PHONY: all run run-tcg test vm kernel modules deps clean

all: run

# The datacenter regime (10 Gbit/s, 20 us) on the UML test bed, in virtual time.
run:
	$(CARGO) xtask run --kernel uml --scenario datacenter

# The TCG guest's table (50 Mbit/s, 2 ms): what `make` ran before the UML test bed.
run-tcg:
	$(CARGO) xtask run --scenario default

test:
	$(CARGO) xtask test

vm:
	$(CARGO) xtask vm

kernel:
	$(CARGO) xtask kernel

modules:
	$(CARGO) xtask modules

deps:
	$(CARGO) xtask deps

clean:
	$(CARGO) clean
	find modules -name '*.o' -o -name '*.ko' -o -name '*.mod' -o -name '*.mod.c' -o -name '.*.cmd' | xargs rm -f
