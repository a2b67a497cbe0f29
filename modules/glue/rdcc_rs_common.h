/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_rs_common.h - the Rust entries every module's C half calls whatever its law's interface:
 * the parameters (glue.rs rdcc_glue_common!, for rdcc_params.h) and the enforcement of a
 * decision, with the records they pass. Included by rdcc_glue.c (the Controller laws) and
 * rdcc_int_glue.c (the INT laws), after rdcc_abi.h.
 */
#ifndef RDCC_RS_COMMON_H
#define RDCC_RS_COMMON_H

/* Text of a parameter given at load ("" = the law's default); writes after load are validated. */
#define RDCC_PARAM_TEXT 40

struct rdcc_param {
	const char *name;
	const char *text;	/* "" = not given: the law's default */
};

/* The decision of one ACK and its enforcement (Decision::enforce), written by one call. */
struct rdcc_ack_out {
	struct rdcc_decision d;
	struct rdcc_enforced e;
};
static_assert(sizeof(struct rdcc_ack_out) == 48);

/*
 * `p` below and in every module's entries is the current validated parameter block (the law's
 * Params, Rust layout), published with RCU: every hook reads it once under rcu_read_lock, so
 * one event sees one whole version.
 */
u32 rdcc_rs_params_size(void);
int rdcc_rs_configure(const struct rdcc_param *params, u32 n, void *out);
int rdcc_rs_param_set(const char *name, const char *text, u32 len, void *out);
int rdcc_rs_param_get(const char *name, u64 *value);
void rdcc_rs_enforce(const struct rdcc_decision *d, u32 mss, u32 srtt_us, u32 clamp,
		     struct rdcc_enforced *out);

#endif /* RDCC_RS_COMMON_H */
