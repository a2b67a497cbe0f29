// SPDX-License-Identifier: GPL-2.0-only
//! `rxstamp`: the receiver side of Swift's remote-queuing-delay channel
//! (Documentation/remote-delay.md).
//!
//! Loads the BPF object built from `bpf/rqd.bpf.c` (embedded at build time), attaches its two
//! programs to a cgroup v2 (every TCP socket of the processes in that cgroup then reports, on
//! every ACK, how long the acknowledged data waited at this host, and the TTL it arrived with),
//! detaches them, and reports the counters.
//!
//! ```text
//! rxstamp attach CGROUP --allow PEER... [--pin DIR] [--rx-stamps]
//!                                                   load, attach, pin, exit (stays attached)
//! rxstamp detach CGROUP [--pin DIR]                 detach and unpin
//! rxstamp stats [--pin DIR] [--reset]               print the counters (and reset them)
//! rxstamp sync [--pin DIR]                          refresh the realtime-monotonic clock offset
//! rxstamp run CGROUP --allow PEER... [--secs N] [--pin DIR] [--rx-stamps]
//!                                                   attach; keep the clock offset fresh (and,
//!                                                   with --rx-stamps, kernel RX timestamping
//!                                                   on); on SIGINT/SIGTERM or after N s print
//!                                                   the counters and detach
//! rxstamp sink PORT --rate KBPS [--secs N]          test helper: a TCP receiver that reads at
//!                                                   most KBPS KB/s (a slow receiver)
//! rxstamp source ADDR PORT [--secs N] [--switch-cc A,B --switch-ms MS] [--poll-info]
//!                                                   test helper: send zeros as fast as possible;
//!                                                   optionally switch the socket's congestion
//!                                                   control between A and B every MS ms and/or
//!                                                   read TCP_CC_INFO in a tight loop meanwhile
//! rxstamp inject ...                                test helper: forge ACKs with the option at a
//!                                                   live flow (src/inject.rs)
//! rxstamp int-probe send DST --port P --count N --size B --slots K [--no-ts]
//!                                                   test helper: INT requests through the
//!                                                   software INT switch (src/intprobe.rs)
//! rxstamp int-probe watch IFACE --port P --count N [--secs S]
//!                                                   test helper: capture and judge the stamps
//! rxstamp int-probe flow IFACE --port P --count N [--secs S]
//!                                                   test helper: judge live connections'
//!                                                   requests and echoes (src/intflow.rs)
//! rxstamp int-probe forge IFACE --port P --count N [--secs S]
//!                                                   test helper: malformed INT requests into a
//!                                                   live connection (src/intforge.rs)
//! rxstamp int attach CGROUP --allow PEER... [--slots N] [--pin DIR]
//! rxstamp int detach CGROUP [--pin DIR]
//! rxstamp int stats [--pin DIR] [--reset]
//!                                                   the INT request and echo (bpf/int.bpf.c,
//!                                                   src/intecho.rs; default pin
//!                                                   /sys/fs/bpf/rdcc_int)
//! rxstamp mtu-watch IFACE [PORT MIN] --mtu N [--secs N]
//!                                                   test helper: largest segment on IFACE, and
//!                                                   data segments from PORT whose TCP header has
//!                                                   no room for the option (below MIN bytes)
//! ```
//!
//! PEER is `PREFIX[@PORT[,PORT...]]` (e.g. `10.0.0.0/24@5201`, `fd00::/64`): only connections
//! to such peers (and, with ports, whose local or peer port is listed) are stamped and carry the
//! option; the default is none. `--allow any` admits every connection (the pre-allowlist
//! behaviour; meant for tests).
//!
//! Attachment uses `BPF_PROG_ATTACH` with `BPF_F_ALLOW_MULTI`, which lives with the cgroup (not
//! with this process), so `attach` can exit; the programs and maps are pinned under DIR
//! (default `/sys/fs/bpf/rdcc_rqd`, bpffs is mounted there if it is not) so `detach` and
//! `stats` find them. aya loads the object: pure Rust, no kernel BTF needed.

mod allow;
mod cli;
mod helpers;
mod inject;
mod intecho;
mod intflow;
mod intforge;
mod intprobe;
mod probe;

use allow::{allow_rules, fill_allow, AllowRule};
use anyhow::{anyhow, bail, Context};
use aya::maps::{Array, Map, MapData};
use aya::programs::{CgroupSkb, SockOps};
use aya::{Ebpf, EbpfLoader, Pod};
use clap::Parser;
use cli::{Cli, Cmd};
use std::ffi::CString;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

// The ELF parser needs the object 8-byte aligned, which include_bytes! does not promise.
static OBJECT: &[u8] = aya::include_bytes_aligned!(concat!(env!("OUT_DIR"), "/rqd.bpf.o"));

const PROG_INGRESS: &str = "rqd_ingress";
const PROG_SOCKOPS: &str = "rqd_sockops";
const MAP_STATS: &str = "rqd_stats";
const MAP_CFG: &str = "rqd_cfg";

/// `struct rqd_cfg` in bpf/rqd.bpf.c.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct Cfg {
    real_minus_mono_ns: i64,
    use_rx_stamps: u32,
    _pad: u32,
}
// SAFETY: plain integers, no padding beyond the explicit field.
unsafe impl Pod for Cfg {}

const HIST: usize = 128;

/// `struct rqd_stats` in bpf/rqd.bpf.c.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Stats {
    ing_data: u64,
    ing_src: [u64; 3],
    ing_hw_seen: u64,
    ing_sw_seen: u64,
    ing_v6: u64,
    ing_skipped: u64,
    len_cb: u64,
    len_nostamp: u64,
    len_enospc: u64,
    written: u64,
    write_err: u64,
    sum_delay_ns: u64,
    min_delay_ns: u64,
    max_delay_ns: u64,
    delack_capped: u64,
    delack_err: u64,
    est_allowed: u64,
    est_skipped: u64,
    len_reserved: u64,
    ing_gro_len: u64,
    wr_prev: u64,
    wr_ahead: u64,
    hist: [u64; HIST],
}
// SAFETY: plain integers.
unsafe impl Pod for Stats {}

impl Default for Stats {
    fn default() -> Self {
        // SAFETY: all-zero is a valid value of a struct of integers.
        unsafe { std::mem::zeroed() }
    }
}

type Res<T> = anyhow::Result<T>;

fn main() -> ExitCode {
    // Misuse exits 2 here (clap), before anything is loaded or attached.
    let cli = Cli::parse();
    if let Err(e) = cli.validate() {
        e.exit();
    }
    match run(cli.cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rxstamp: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cmd: Cmd) -> Res<()> {
    match cmd {
        Cmd::Attach(a) => {
            let rules = allow_rules(&a.allow)?;
            let _ebpf = attach(&a.cgroup, &a.pin.dir, a.rx_stamps, &rules)?;
            println!(
                "rxstamp: attached to {} (pinned under {})",
                a.cgroup.display(),
                a.pin.dir.display()
            );
            Ok(())
        }
        Cmd::Detach { cgroup, pin } => detach(&cgroup, &pin.dir),
        Cmd::Stats { pin, reset } => {
            let mut a = stats_map(&pin.dir)?;
            print_stats(&read_stats(&a)?);
            if reset {
                a.set(0, Stats::default(), 0).context("reset")?;
            }
            Ok(())
        }
        Cmd::Sync { pin } => sync_clock(&pin.dir, None).map(|_| ()),
        Cmd::Run { attach, secs } => {
            let rules = allow_rules(&attach.allow)?;
            run_foreground(
                &attach.cgroup,
                &attach.pin.dir,
                attach.rx_stamps,
                secs,
                &rules,
            )
        }
        Cmd::Sink { port, rate, secs } => helpers::sink(port, rate, secs),
        Cmd::Source(a) => helpers::source(&a),
        Cmd::Inject(a) => inject::main(&a),
        Cmd::MtuWatch {
            iface,
            port,
            min_tcp_hdr,
            mtu,
            secs,
        } => probe::mtu_watch(&iface, mtu, secs, port.zip(min_tcp_hdr)),
        // For the build harness: is the BPF object embedded?
        Cmd::IntProbe(p) => match p {
            cli::IntProbe::Send {
                dst,
                port,
                count,
                size,
                slots,
                no_ts,
            } => intprobe::send(dst, port, count, size as usize, slots as usize, no_ts),
            cli::IntProbe::Watch {
                iface,
                port,
                count,
                secs,
            } => intprobe::watch(&iface, port, count, secs),
            cli::IntProbe::Flow {
                iface,
                port,
                count,
                secs,
            } => intflow::flow(&iface, port, count, secs),
            cli::IntProbe::Forge {
                iface,
                port,
                count,
                secs,
            } => intforge::forge(&iface, port, count, secs),
        },
        Cmd::Int(c) => match c {
            cli::IntCmd::Attach {
                cgroup,
                allow,
                slots,
                pin,
            } => intecho::attach(&cgroup, &pin.dir, slots.unwrap_or(0), &allow_rules(&allow)?),
            cli::IntCmd::Detach { cgroup, pin } => intecho::detach(&cgroup, &pin.dir),
            cli::IntCmd::Stats { pin, reset } => intecho::stats(&pin.dir, reset),
        },
        Cmd::Selfcheck if OBJECT.starts_with(b"\x7fELF") => Ok(()),
        Cmd::Selfcheck => Err(anyhow!("built without the BPF object")),
    }
}

// ---- the bpf(2) calls aya does not offer for this use ---------------------------------------

const BPF_OBJ_GET: libc::c_long = 7;
const BPF_PROG_ATTACH: libc::c_long = 8;
const BPF_PROG_DETACH: libc::c_long = 9;
const BPF_CGROUP_INET_INGRESS: u32 = 0;
pub(crate) const BPF_CGROUP_SOCK_OPS: u32 = 3;
const BPF_F_ALLOW_MULTI: u32 = 1 << 1;

#[repr(C)]
#[derive(Default)]
struct AttachAttr {
    target_fd: u32,
    attach_bpf_fd: u32,
    attach_type: u32,
    attach_flags: u32,
    replace_bpf_fd: u32,
}

#[repr(C)]
#[derive(Default)]
struct ObjAttr {
    pathname: u64,
    bpf_fd: u32,
    file_flags: u32,
}

fn bpf<T>(cmd: libc::c_long, attr: &mut T) -> std::io::Result<libc::c_long> {
    // SAFETY: `attr` is a valid, initialised bpf_attr prefix of size_of::<T>() bytes; the kernel
    // zero-extends the rest.
    let r = unsafe {
        libc::syscall(
            libc::SYS_bpf,
            cmd,
            attr as *mut T as *mut libc::c_void,
            std::mem::size_of::<T>() as libc::c_uint,
        )
    };
    if r < 0 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

pub(crate) fn prog_attach(cg: BorrowedFd, prog: BorrowedFd, ty: u32) -> std::io::Result<()> {
    let mut a = AttachAttr {
        target_fd: cg.as_raw_fd() as u32,
        attach_bpf_fd: prog.as_raw_fd() as u32,
        attach_type: ty,
        attach_flags: BPF_F_ALLOW_MULTI,
        ..Default::default()
    };
    bpf(BPF_PROG_ATTACH, &mut a).map(|_| ())
}

pub(crate) fn prog_detach(cg: BorrowedFd, prog: BorrowedFd, ty: u32) -> std::io::Result<()> {
    let mut a = AttachAttr {
        target_fd: cg.as_raw_fd() as u32,
        attach_bpf_fd: prog.as_raw_fd() as u32,
        attach_type: ty,
        ..Default::default()
    };
    bpf(BPF_PROG_DETACH, &mut a).map(|_| ())
}

pub(crate) fn obj_get(path: &Path) -> std::io::Result<OwnedFd> {
    let c = CString::new(path.as_os_str().as_bytes()).map_err(std::io::Error::other)?;
    let mut a = ObjAttr {
        pathname: c.as_ptr() as u64,
        ..Default::default()
    };
    let fd = bpf(BPF_OBJ_GET, &mut a)?;
    // SAFETY: BPF_OBJ_GET returned a new file descriptor that nothing else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

// ---- attach / detach -------------------------------------------------------------------------

const BPF_FS_MAGIC: i64 = 0xcafe4a11;

/// Mount bpffs at the pin directory's parent if it is not one (as bpftool does).
pub(crate) fn ensure_bpffs(pin: &Path) -> Res<()> {
    let parent = pin.parent().unwrap_or(Path::new("/sys/fs/bpf"));
    std::fs::create_dir_all(parent).with_context(|| parent.display().to_string())?;
    let c = CString::new(parent.as_os_str().as_bytes())?;
    // SAFETY: statfs on a valid NUL-terminated path into a zeroed struct.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    if unsafe { libc::statfs(c.as_ptr(), &mut st) } == 0 && st.f_type as i64 == BPF_FS_MAGIC {
        return Ok(());
    }
    let fstype = CString::new("bpf")?;
    // SAFETY: valid NUL-terminated strings; no data argument.
    let r = unsafe {
        libc::mount(
            fstype.as_ptr(),
            c.as_ptr(),
            fstype.as_ptr(),
            0,
            std::ptr::null(),
        )
    };
    if r != 0 {
        return Err(anyhow!(
            "{} is not a bpf file system and mounting one failed: {}",
            parent.display(),
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

fn clock_ns(id: libc::clockid_t) -> i64 {
    // SAFETY: clock_gettime into a zeroed timespec.
    let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    unsafe { libc::clock_gettime(id, &mut ts) };
    ts.tv_sec as i64 * 1_000_000_000 + ts.tv_nsec as i64
}

/// Reads of the clock pair per offset measurement; the tightest one is kept.
const OFFSET_READS: usize = 16;

/// CLOCK_REALTIME - CLOCK_MONOTONIC: a monotonic read between two realtime reads, the middle of
/// the realtime pair taken as simultaneous with it; of OFFSET_READS tries, the one with the
/// narrowest realtime pair. One try is off by up to half its width: a vCPU preempted between
/// the reads (a busy host under TCG: milliseconds) made the offset too small, so RX stamps
/// converted to times in the future and the BPF program rejected them until the next sync
/// (CI: 2552 of 3190 arrivals stamped).
fn real_minus_mono() -> i64 {
    (0..OFFSET_READS)
        .map(|_| {
            let r1 = clock_ns(libc::CLOCK_REALTIME);
            let m = clock_ns(libc::CLOCK_MONOTONIC);
            let r2 = clock_ns(libc::CLOCK_REALTIME);
            (r2.saturating_sub(r1), r1 + (r2 - r1) / 2 - m)
        })
        .min_by_key(|&(width, _)| width)
        .map_or(0, |(_, off)| off)
}

fn cfg_map(pin: &Path) -> Res<Array<MapData, Cfg>> {
    let md = MapData::from_pin(pin.join(MAP_CFG))
        .map_err(|e| anyhow!("{}: {e} (not attached?)", pin.join(MAP_CFG).display()))?;
    Array::try_from(Map::Array(md)).map_err(anyhow::Error::from)
}

fn stats_map(pin: &Path) -> Res<Array<MapData, Stats>> {
    let md = MapData::from_pin(pin.join(MAP_STATS))
        .map_err(|e| anyhow!("{}: {e} (not attached?)", pin.join(MAP_STATS).display()))?;
    Array::try_from(Map::Array(md)).map_err(anyhow::Error::from)
}

/// Refresh the clock offset the BPF program converts RX stamps with; `use_rx` changes the mode.
fn sync_clock(pin: &Path, use_rx: Option<bool>) -> Res<Cfg> {
    let mut a = cfg_map(pin)?;
    let mut c = a.get(&0, 0)?;
    c.real_minus_mono_ns = real_minus_mono();
    if let Some(u) = use_rx {
        c.use_rx_stamps = u as u32;
    }
    a.set(0, c, 0)?;
    Ok(c)
}

fn attach(cgroup: &Path, pin: &Path, rx_stamps: bool, allow: &[AllowRule]) -> Res<Ebpf> {
    if OBJECT.is_empty() {
        bail!(
            "built without the BPF object (clang or libbpf-dev missing at build time; \
             run `cargo xtask deps` and rebuild)"
        );
    }
    let cg = std::fs::File::open(cgroup).with_context(|| cgroup.display().to_string())?;
    ensure_bpffs(pin)?;
    if pin.exists() {
        return Err(anyhow!(
            "{} exists: already attached? (rxstamp detach CGROUP --pin {})",
            pin.display(),
            pin.display()
        ));
    }
    let mut ebpf = EbpfLoader::new()
        .allow_unsupported_maps()
        .load(OBJECT)
        .context("load")?;
    std::fs::create_dir_all(pin).with_context(|| pin.display().to_string())?;
    if allow.is_empty() {
        eprintln!(
            "rxstamp: no --allow: no connection of {} will be stamped or carry the option",
            cgroup.display()
        );
    }
    let res = (|| -> Res<()> {
        fill_allow(&mut ebpf, allow)?;
        for name in [MAP_STATS, MAP_CFG] {
            ebpf.map(name)
                .with_context(|| format!("map {name} missing"))?
                .pin(pin.join(name))
                .with_context(|| format!("pin {name}"))?;
        }
        {
            let p: &mut CgroupSkb = ebpf
                .program_mut(PROG_INGRESS)
                .context("program rqd_ingress missing")?
                .try_into()?;
            p.load().context("load rqd_ingress")?;
            p.pin(pin.join(PROG_INGRESS)).context("pin")?;
            let fd = p.fd()?;
            prog_attach(cg.as_fd(), fd.as_fd(), BPF_CGROUP_INET_INGRESS)
                .with_context(|| format!("attach ingress to {}", cgroup.display()))?;
        }
        {
            let p: &mut SockOps = ebpf
                .program_mut(PROG_SOCKOPS)
                .context("program rqd_sockops missing")?
                .try_into()?;
            p.load().context("load rqd_sockops")?;
            p.pin(pin.join(PROG_SOCKOPS)).context("pin")?;
            let fd = p.fd()?;
            prog_attach(cg.as_fd(), fd.as_fd(), BPF_CGROUP_SOCK_OPS)
                .with_context(|| format!("attach sock_ops to {}", cgroup.display()))?;
        }
        sync_clock(pin, Some(rx_stamps))?;
        Ok(())
    })();
    if let Err(e) = res {
        let _ = detach(cgroup, pin);
        return Err(e);
    }
    Ok(ebpf)
}

fn detach(cgroup: &Path, pin: &Path) -> Res<()> {
    let cg = std::fs::File::open(cgroup).with_context(|| cgroup.display().to_string())?;
    let mut errs = Vec::new();
    for (name, ty) in [
        (PROG_INGRESS, BPF_CGROUP_INET_INGRESS),
        (PROG_SOCKOPS, BPF_CGROUP_SOCK_OPS),
    ] {
        let path = pin.join(name);
        match obj_get(&path) {
            Ok(fd) => {
                if let Err(e) = prog_detach(cg.as_fd(), fd.as_fd(), ty) {
                    errs.push(format!("detach {name}: {e}"));
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => errs.push(format!("{}: {e}", path.display())),
        }
        let _ = std::fs::remove_file(&path);
    }
    for name in [MAP_STATS, MAP_CFG] {
        let _ = std::fs::remove_file(pin.join(name));
    }
    let _ = std::fs::remove_dir(pin);
    if errs.is_empty() {
        println!("rxstamp: detached from {}", cgroup.display());
        Ok(())
    } else {
        Err(anyhow!(errs.join("; ")))
    }
}

// ---- run -------------------------------------------------------------------------------------

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// A UDP socket with SO_TIMESTAMPNS keeps the kernel's RX software timestamping on
/// (`net_enable_timestamp`) while it is open, so skb->tstamp is set on every received packet.
fn timestamping_socket() -> Res<OwnedFd> {
    // SAFETY: plain socket(2).
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM, 0) };
    if fd < 0 {
        bail!("socket: {}", std::io::Error::last_os_error());
    }
    // SAFETY: fd is a new socket we own.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let one: libc::c_int = 1;
    // SAFETY: valid socket and option buffer.
    let r = unsafe {
        libc::setsockopt(
            fd.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_TIMESTAMPNS,
            &one as *const libc::c_int as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r != 0 {
        return Err(anyhow!(
            "SO_TIMESTAMPNS: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(fd)
}

fn run_foreground(
    cgroup: &Path,
    pin: &Path,
    rx_stamps: bool,
    secs: Option<u64>,
    allow: &[AllowRule],
) -> Res<()> {
    let _tsock = if rx_stamps {
        Some(timestamping_socket()?)
    } else {
        None
    };
    let _ebpf = attach(cgroup, pin, rx_stamps, allow)?;
    println!("rxstamp: attached to {}", cgroup.display());
    // SAFETY: installing an async-signal-safe handler that only stores to an atomic.
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
    let t0 = Instant::now();
    let mut last_sync = Instant::now();
    while !STOP.load(Ordering::SeqCst) && secs.map_or(true, |s| t0.elapsed().as_secs() < s) {
        std::thread::sleep(Duration::from_millis(100));
        if last_sync.elapsed() >= Duration::from_secs(1) {
            let _ = sync_clock(pin, None);
            last_sync = Instant::now();
        }
    }
    let st = stats_map(pin).and_then(|a| read_stats(&a));
    let d = detach(cgroup, pin);
    print_stats(&st?);
    d
}

// ---- counters --------------------------------------------------------------------------------

fn read_stats(a: &Array<MapData, Stats>) -> Res<Stats> {
    a.get(&0, 0).context("read stats")
}

/// Lower and upper bound (ns) of histogram bucket `b` (see rqd_bucket in bpf/rqd.bpf.c).
fn bucket_bounds(b: usize) -> (u64, u64) {
    if b < 4 {
        return (b as u64, b as u64 + 1);
    }
    let l = (b / 4) as u32;
    let sub = (b % 4) as u64;
    ((4 + sub) << (l - 2), (5 + sub) << (l - 2))
}

/// The value below which `q` (per mille) of the samples lie: the upper bound of the bucket that
/// crosses the rank, clamped to [min, max].
fn quantile(s: &Stats, q_permille: u64) -> u64 {
    let n: u64 = s.hist.iter().sum();
    if n == 0 {
        return 0;
    }
    let rank = (n * q_permille).div_ceil(1000).max(1);
    let mut acc = 0;
    for (b, c) in s.hist.iter().enumerate() {
        acc += c;
        if acc >= rank {
            return bucket_bounds(b).1.clamp(s.min_delay_ns, s.max_delay_ns);
        }
    }
    s.max_delay_ns
}

fn print_stats(s: &Stats) {
    let kv: &[(&str, u64)] = &[
        ("ing_data", s.ing_data),
        ("ing_src_tcp", s.ing_src[0]),
        ("ing_src_sw_rx", s.ing_src[1]),
        ("ing_src_hw_rx", s.ing_src[2]),
        ("ing_hw_seen", s.ing_hw_seen),
        ("ing_sw_seen", s.ing_sw_seen),
        ("ing_v6", s.ing_v6),
        ("ing_skipped", s.ing_skipped),
        ("len_cb", s.len_cb),
        ("len_nostamp", s.len_nostamp),
        ("len_enospc", s.len_enospc),
        ("written", s.written),
        ("write_err", s.write_err),
        ("delay_min_ns", s.min_delay_ns),
        (
            "delay_mean_ns",
            s.sum_delay_ns.checked_div(s.written).unwrap_or(0),
        ),
        ("delay_p50_ns", quantile(s, 500)),
        ("delay_p99_ns", quantile(s, 990)),
        ("delay_max_ns", s.max_delay_ns),
        ("delack_capped", s.delack_capped),
        ("delack_err", s.delack_err),
        ("est_allowed", s.est_allowed),
        ("est_skipped", s.est_skipped),
        ("len_reserved", s.len_reserved),
        ("ing_gro_len", s.ing_gro_len),
        ("wr_prev", s.wr_prev),
        ("wr_ahead", s.wr_ahead),
    ];
    for (k, v) in kv {
        println!("{k} {v}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_contiguous() {
        let mut prev = bucket_bounds(8).0;
        assert_eq!(prev, 4);
        for b in 8..HIST {
            let (lo, hi) = bucket_bounds(b);
            assert_eq!(lo, prev, "bucket {b}");
            assert!(hi > lo);
            prev = hi;
        }
        assert_eq!(prev, 1 << 32);
    }

    #[test]
    fn quantiles() {
        let mut s = Stats::default();
        // 99 samples of ~10 µs (bucket of 10000: l = 13, sub = 10000 >> 11 & 3 = 0 -> b = 52)
        // and one of ~1 ms.
        s.hist[52] = 99;
        s.hist[4 * 19 + 3] = 1;
        s.min_delay_ns = 9000;
        s.max_delay_ns = 1_000_000;
        assert_eq!(bucket_bounds(52), (8192, 10240));
        assert_eq!(quantile(&s, 500), 10240);
        assert_eq!(quantile(&s, 990), 10240);
        assert_eq!(quantile(&s, 1000), 1_000_000);
    }

    #[test]
    fn object_is_embedded() {
        // The build machine has clang and libbpf-dev (cargo xtask deps); an empty object means
        // the BPF program did not compile.
        if std::process::Command::new("clang")
            .arg("--version")
            .output()
            .is_ok()
            && Path::new("/usr/include/bpf/bpf_helpers.h").exists()
        {
            assert!(OBJECT.len() > 1000, "rqd.bpf.o is empty");
            assert_eq!(&OBJECT[..4], b"\x7fELF");
        }
    }
}
