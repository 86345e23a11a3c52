"""The isolated runner's child, before any model-written code runs: confine it, then exec (host side, Linux).

Run by :mod:`.isolated` as ``python -I -S -B confine.py STEPS CODE ARGS...``, inside ``unshare``
where the kernel allows it; STEPS is a comma list of:

- ``readonly`` (only inside a new user and mount namespace): every mount this process sees is
  made read-only, and a small private tmpfs is mounted on the working directory (the run's own
  temporary folder): the only place a file can be created, gone when the run ends. Not on
  ``/tmp``: a checkout or a virtual environment may live there, and the child imports from it. The code then runs
  without capabilities, so it cannot remount anything writable (a new user namespace of its own
  gets copies whose read-only flag the kernel locks);
- ``landlock`` (Linux 5.13 and later, no namespace needed): files may be created, written, emptied,
  renamed or removed only beneath the working directory; from ABI 6 (Linux 6.12) no signal
  reaches a process outside the run; and, at every ABI, no other process's ``/proc`` memory or
  environment can be read (Landlock refuses ``ptrace`` access outside its domain);
- ``filter``: a seccomp filter (x86-64 and ARM64) that refuses ``socket`` for every family (no
  network, and no Unix socket, whose file a read-only mount does not protect), ``io_uring``
  (which could open one), signals to any process (``kill``, ``tgkill``...) and ``ptrace`` /
  ``process_vm_*`` (reading another process's memory).

Every run on Linux also drops the capabilities (root inside a namespace keeps none) and sets "no new
privileges". Then it execs ``python -I -S -B -c CODE ARGS...``; the filter and the mounts stay.
If a step fails the child says which on stderr and exits with :data:`REFUSED`: a run is never
less confined than the runner said. Only the standard library: no ``agent_team`` import here.
"""

import ctypes
import functools
import os
import platform
import re
import struct
import sys

REFUSED = 125
PR_SET_SECCOMP, PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_SET_SECUREBITS = 22, 38, 24, 28
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
SECBITS_LOCKED_NOROOT = 0x2f   # noroot, no-setuid-fixup, keep-caps off, all locked: uid 0 gains none on exec
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND = 1, 2, 4, 8, 32, 4096
MS_REC, MS_PRIVATE = 16384, 1 << 18
KEPT = {"nosuid": MS_NOSUID, "nodev": MS_NODEV, "noexec": MS_NOEXEC, "noatime": 1024,
        "nodiratime": 2048, "relatime": 1 << 21, "nosymfollow": 256}   # kept as they were (some are locked)
# (audit arch, syscalls refused): socket, io_uring_setup, kill, tkill, tgkill, rt_sigqueueinfo,
# rt_tgsigqueueinfo, pidfd_send_signal, ptrace, process_vm_readv, process_vm_writev
ARCHES = {"x86_64": (0xC000003E, (41, 425, 62, 200, 234, 129, 297, 424, 101, 310, 311)),
          "aarch64": (0xC00000B7, (198, 425, 129, 130, 131, 138, 240, 424, 117, 270, 271))}
X32 = 0x40000000   # x86-64's x32 calls share its arch value: refuse them all

libc = ctypes.CDLL(None, use_errno=True)


def _check(result, what):
    if result != 0:
        raise OSError(ctypes.get_errno(), f"{what}: {os.strerror(ctypes.get_errno())}")


def _mount(source, target, fstype, flags, data=None):
    enc = [s.encode() if isinstance(s, str) else s for s in (source, target, fstype, data)]
    _check(libc.mount(enc[0], enc[1], enc[2], ctypes.c_ulong(flags), enc[3]), f"mount {os.fsdecode(enc[1])}")


def _mounts():
    """(mount point, its per-mount options) for each mount, as /proc/self/mountinfo lists them."""
    with open("/proc/self/mountinfo", "rb") as table:
        rows = [line.split() for line in table]
    # octal escapes (a space is \040) decoded, as bytes; parents before children
    unescape = functools.partial(re.compile(rb"\\([0-7]{3})").sub, lambda m: bytes([int(m.group(1), 8)]))
    return [(unescape(row[4]), row[5].decode().split(",")) for row in rows]


def readonly():
    _mount(None, "/", None, MS_REC | MS_PRIVATE)   # nothing done here reaches the host's mounts
    for point, options in _mounts():
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        for option in options:
            flags |= KEPT.get(option, 0)
        try:
            _mount(None, point, None, flags)
        except OSError:
            if "ro" not in options and os.path.exists(point):
                raise
    here = os.getcwd()
    _mount("tmpfs", here, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=1m,nr_inodes=256,mode=700")
    os.chdir(here)   # entered again: the tmpfs, not the folder beneath it


def drop_privileges():
    if not sys.platform.startswith("linux"):
        return   # no prctl: elsewhere the runner has its limits and empty environment only
    libc.prctl(PR_SET_SECUREBITS, SECBITS_LOCKED_NOROOT, 0, 0, 0)   # refused without CAP_SETPCAP: none to drop
    for cap in range(64):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no new privileges")


LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446   # the same on every arch
# write, remove dir/file, make char/dir/reg/sock/fifo/block/sym; REFER from ABI 2, TRUNCATE from ABI 3
LANDLOCK_WRITES = {1: 0b1111111110010, 2: 0b11111111110010, 3: 0b111111111110010}
SCOPE_SIGNALS = 2   # LANDLOCK_SCOPE_SIGNAL, ABI 6


def landlock():
    abi = libc.syscall(LANDLOCK_CREATE_RULESET, None, 0, 1)   # flag 1: the ABI version
    if abi < 1:
        raise OSError(ctypes.get_errno(), "Landlock is not available")
    writes = LANDLOCK_WRITES[min(abi, 3)]
    # handled_access_fs, handled_access_net (ABI 4: TCP bind and connect, both refused), scoped (ABI 6)
    ruleset = (ctypes.c_uint64 * 3)(writes, 3 if abi >= 4 else 0, SCOPE_SIGNALS if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    fd = libc.syscall(LANDLOCK_CREATE_RULESET, ctypes.byref(ruleset), ctypes.c_size_t(size), 0)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "Landlock ruleset")
    here = os.open(".", os.O_PATH | os.O_DIRECTORY)
    beneath = struct.pack("=Qi", writes, here)   # struct landlock_path_beneath_attr, packed
    _check(libc.syscall(LANDLOCK_ADD_RULE, fd, 1, beneath, 0), "Landlock rule")
    _check(libc.syscall(LANDLOCK_RESTRICT_SELF, fd, 0), "Landlock")
    os.close(here)
    os.close(fd)


class Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]


class Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]


def seccomp_filter():
    if platform.machine() not in ARCHES:
        raise OSError(0, f"no seccomp filter for {platform.machine()}")
    arch, refused = ARCHES[platform.machine()]
    load, equal, at_least, give = 0x20, 0x15, 0x35, 0x06   # BPF: ld [k]; jeq k; jge k; ret k
    code = [(load, 0, 0, 4), (equal, 0, None, arch), (load, 0, 0, 0), (at_least, None, 0, X32)]
    code += [(equal, None, 0, number) for number in refused]
    code += [(give, 0, 0, 0x7FFF0000)]                      # allow
    deny = len(code)
    code += [(give, 0, 0, 0x00050000 | 1)]                  # refuse with EPERM
    jump = [(c, deny - i - 1 if jt is None else jt, deny - i - 1 if jf is None else jf, k)
            for i, (c, jt, jf, k) in enumerate(code)]
    table = (Instruction * len(jump))(*[Instruction(*row) for row in jump])
    program = Program(len(jump), table)
    _check(libc.prctl(PR_SET_SECCOMP, 2, ctypes.byref(program), 0, 0), "seccomp filter")


def main(argv):
    steps, code, args = [s for s in argv[1].split(",") if s], argv[2], argv[3:]
    try:
        if "readonly" in steps:
            readonly()
        drop_privileges()
        if "landlock" in steps:
            landlock()
        if "filter" in steps:
            seccomp_filter()
    except OSError as err:
        sys.stderr.write(f"the isolated runner could not confine the code ({err}); nothing was run\n")
        return REFUSED
    os.execv(sys.executable, [sys.executable, "-I", "-S", "-B", "-c", code, *args])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
