/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_params.h - the module parameters of rdcc_glue.c: one 0644 parameter per field of the law's
 * Config, parsed and validated by Rust, published with RCU, and the parameter generation that
 * keys every lease. Part of rdcc_glue.c, in its own file to keep that file readable: included
 * once, by rdcc_glue.c, after the Rust prototypes and the trace event.
 */
#ifndef RDCC_PARAMS_H
#define RDCC_PARAMS_H

/*
 * Every field of the law's Config is a parameter of the same name, writable at runtime (0644).
 * Values are read in the unit the name states, or in human units (core/src/units.rs: `0.8`,
 * `25us`, `50Mbit`). At load the texts are validated together (a bad one refuses the load);
 * afterwards a write is validated with all the other current values before it takes effect:
 * a bad value is refused with a log line naming the range, and the old value stays.
 *
 * Publication: the validated Params live in a kmalloc'ed block behind rdcc_params_cur. A write
 * builds a new block, publishes it with rcu_assign_pointer and frees the old one after
 * synchronize_rcu(). Every hook dereferences the pointer once under rcu_read_lock, so an event
 * sees one whole parameter set, old or new, never a mix. Sockets of this CA (existing and new
 * alike) use the new values from their next event; their per-flow state (window, rate, averages)
 * carries over and is moved by the new values from there, within the same bounds.
 *
 * Writers are serialized by the module's kernel_param_lock, which sysfs takes around every
 * parameter read and write, and which rdcc_c_register takes around the initial configuration.
 */
/* Units of the parameter names (core/src/units.rs Unit::describe; a host test keeps them equal). */
#define RDCC_U_Q16 "fraction: 0.8, or Q16 integer (65536 = 1.0)"
#define RDCC_U_PKTS_Q20 "packets: 0.001, or integer packets << 20"
#define RDCC_U_NS "time: 25us, 1.5ms, or integer ns"
#define RDCC_U_BPS "rate: 50Mbit, 10Gbit, or integer bytes/s"
#define RDCC_U_MBPS "rate: 100Gbit, 50Mbit, or integer Mbit/s"
#define RDCC_U_BYTES "size: 64KiB, 1.5KB, or integer bytes"
#define RDCC_U_PLAIN "integer"

static void __rcu *rdcc_params_cur;
static bool rdcc_params_live;	/* under kernel_param_lock(THIS_MODULE) */

/*
 * A parameter block: this header, then the law's Params, which rdcc_params_cur points to and
 * every hook passes to Rust. The header holds the generation the block was published with
 * (below; 0 in a module without a lease), written before the block is published and never
 * after, so a fast path that reads parameters (Swift's remote-delay lease) can tell whether the
 * block it dereferenced is its lease's: the global generation alone cannot, since it is bumped
 * after the pointer is replaced. `params` is u64-aligned, as every Params is.
 */
struct rdcc_params_block {
	u32 gen;
	u32 _pad;
	u64 params[];
};

/* A zeroed block for rdcc_rs_params_size() bytes of Params: the Params' address, or NULL. */
static void *rdcc_params_alloc(void)
{
	struct rdcc_params_block *b = kzalloc(sizeof(*b) + rdcc_rs_params_size(), GFP_KERNEL);

	return b ? b->params : NULL;
}

static struct rdcc_params_block *rdcc_params_block_of(const void *p)
{
	return container_of((u64 *)p, struct rdcc_params_block, params[0]);
}

/* The generation block p was published with. */
static __always_inline u32 rdcc_params_block_gen(const void *p)
{
	return rdcc_params_block_of(p)->gen;
}

static void rdcc_params_release(void *p)
{
	if (p)
		kfree(rdcc_params_block_of(p));
}

#ifdef RDCC_HAS_LEASE
/*
 * Generation of rdcc_params_cur, the key of every lease (struct rdcc_lease.gen,
 * struct rdcc_theta_lease.gen): a lease granted
 * under one parameter block is not applied after the block is replaced. Not the pointer itself:
 * kmalloc may hand a freed block's address to a later write. Never 0 (the all-zero lease is no
 * lease). Writers (kernel_param_lock held, so the increment is not racy) bump it after replacing
 * the pointer, with release; the full path reads it with acquire before rcu_dereference, so a
 * lease is never labelled newer than the parameters it was computed with (reading the new
 * generation implies seeing the new pointer). The fast path reads it with READ_ONCE and
 * dereferences no parameters: an ACK that still takes the old lease during a write is an event
 * that saw the old set, which RCU allows anyway, and the bump precedes synchronize_rcu(), so
 * every ACK after the write returns sees the new generation. A lease is used at most
 * 0xffff << RDCC_LEASE_SPAN_SHIFT ns (268 ms) after its since_ns (RDCC_LEASE), or
 * RDCC_THETA_LIFE_NS (4.3 s) after its state's update_ns (RDCC_LEASE_THETA), far too short for
 * 2^32 writes (each a syscall and a synchronize_rcu()), so the u32 does not come back to a live
 * lease's value. Swift's leases (RDCC_LEASE_SWIFT) are labelled with the generation of the block
 * the full path used (rdcc_params_block_gen), exactly; its remote-delay fast path dereferences
 * the current block and runs only if that block's generation is the lease's, so the parameters
 * it reads are the grant's. A Swift lease ends at its window bound or at an open decrease guard,
 * within a few RTTs, but for a hold at min_cwnd (which refreshes the guard): that one would
 * have to outlive 2^32 writes, over 49 days of writes back to back at a grace period each.
 */
static u32 rdcc_params_gen __read_mostly = 1;

/* The generation the next block gets (writers only, under kernel_param_lock). */
static u32 rdcc_params_gen_next(void)
{
	return rdcc_params_gen + 1 ?: 1;
}

static void rdcc_params_gen_set(u32 gen)
{
	smp_store_release(&rdcc_params_gen, gen);
}

/* The generation of the first block (rdcc_configure). */
static u32 rdcc_params_gen_first(void)
{
	return rdcc_params_gen;
}
#else
static inline u32 rdcc_params_gen_next(void)
{
	return 0;
}

static inline void rdcc_params_gen_set(u32 gen)
{
}

static inline u32 rdcc_params_gen_first(void)
{
	return 0;
}
#endif

static int rdcc_param_publish(const char *name, const char *val)
{
	void *fresh = rdcc_params_alloc();
	void *old;
	int err;

	if (!fresh)
		return -ENOMEM;
	err = rdcc_rs_param_set(name, val, strnlen(val, RDCC_PARAM_TEXT + 1), fresh);
	if (err) {
		rdcc_params_release(fresh);
		return err;
	}
	rdcc_params_block_of(fresh)->gen = rdcc_params_gen_next();
	old = rcu_replace_pointer(rdcc_params_cur, fresh, true);
	/* ends every lease granted under old */
	rdcc_params_gen_set(rdcc_params_block_gen(fresh));
	synchronize_rcu();
	rdcc_params_release(old);
	return 0;
}

static int rdcc_param_set(const char *val, const struct kernel_param *kp)
{
	char *text = kp->arg;

	if (strnlen(val, RDCC_PARAM_TEXT + 1) > RDCC_PARAM_TEXT) {
		pr_err("%s: %s: value longer than %d characters refused\n", RDCC_NAME, kp->name,
		       RDCC_PARAM_TEXT);
		return -EINVAL;
	}
	if (rdcc_params_live) {
		int err = rdcc_param_publish(kp->name, val);

		if (err)
			return err;
	}
	strscpy(text, val, RDCC_PARAM_TEXT + 1);
	strim(text);
	return 0;
}

static int rdcc_param_get(char *buf, const struct kernel_param *kp)
{
	u64 v;

	if (rdcc_params_live && !rdcc_rs_param_get(kp->name, &v))
		return sysfs_emit(buf, "%llu\n", v);
	return sysfs_emit(buf, "%s\n", (const char *)kp->arg);
}

static const struct kernel_param_ops rdcc_param_ops = {
	.set = rdcc_param_set,
	.get = rdcc_param_get,
};

#define RDCC_PARAM_VAR(name, desc, unit, range) static char rdcc_pt_##name[RDCC_PARAM_TEXT + 1];
RDCC_PARAMS(RDCC_PARAM_VAR)

#define RDCC_PARAM_DECL(name, desc, unit, range)                                               \
	module_param_cb(name, &rdcc_param_ops, rdcc_pt_##name, 0644);                         \
	MODULE_PARM_DESC(name, desc "; " unit "; " range " (unset: the paper's default; reads "  \
			 "show the effective value in the name's unit)");
RDCC_PARAMS(RDCC_PARAM_DECL)

#define RDCC_PARAM_ENTRY(name, desc, unit, range) { #name, rdcc_pt_##name },
static const struct rdcc_param rdcc_params[] = { RDCC_PARAMS(RDCC_PARAM_ENTRY) };

/* The first parameter block, from the texts given at load (rdcc_c_register). */
static int rdcc_configure(void)
{
	void *fresh = rdcc_params_alloc();
	int err;

	if (!fresh)
		return -ENOMEM;
	kernel_param_lock(THIS_MODULE);
	err = rdcc_rs_configure(rdcc_params, ARRAY_SIZE(rdcc_params), fresh);
	if (!err) {
		rdcc_params_block_of(fresh)->gen = rdcc_params_gen_first();
		rcu_assign_pointer(rdcc_params_cur, fresh);
		rdcc_params_live = true;
	}
	kernel_param_unlock(THIS_MODULE);
	if (err)
		rdcc_params_release(fresh);
	return err;
}

static void rdcc_params_free(void)
{
	void *old;

	kernel_param_lock(THIS_MODULE);
	rdcc_params_live = false;
	old = rcu_replace_pointer(rdcc_params_cur, NULL, true);
	rdcc_params_gen_set(rdcc_params_gen_next());
	kernel_param_unlock(THIS_MODULE);
	synchronize_rcu();
	rdcc_params_release(old);
}

#endif /* RDCC_PARAMS_H */
