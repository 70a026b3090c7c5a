# The figures make bench reads from fio's JSON (tools/vm/bench.sh; tests/bench.bats)
def read_mibs: [.jobs[].read.bw_bytes] | add / 1048576;
def read_clat_us: .jobs[0].read.clat_ns.mean / 1000;
def runtime_s: [.jobs[].job_runtime] | max / 1000;
def kiops(dir): .jobs[0][dir].iops / 1000;
def reader_clat_us(p): [.jobs[] | select(.jobname == "reader")][0].read.clat_ns.percentile[p] / 1000;
def writers_mibs: [.jobs[] | select(.jobname == "writers") | .write.bw_bytes] | add / 1048576;
def sys_us_per_write: .jobs[0] | .sys_cpu / 100 * .job_runtime * 1000 / .write.total_ios;
