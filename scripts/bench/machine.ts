// The machine a benchmark ran on, as docs/benchmarks.md reports it next to the figures.
import os from "node:os";

export interface Machine {
  node: string;
  platform: string;
  cpus: number;
  cpuModel: string;
  /** 1-minute load average when the run started (0 where the platform has none): other work skews the figures. */
  loadAverage: number;
}

export function describeMachine(): Machine {
  return {
    node: process.version,
    platform: `${process.platform} ${os.release()} ${process.arch}`,
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
    loadAverage: os.loadavg()[0] ?? 0,
  };
}

export function machineLine(machine: Machine): string {
  return `Node ${machine.node} · ${machine.cpus} CPUs (${machine.cpuModel}) · ${machine.platform} · load ${machine.loadAverage.toFixed(2)}`;
}
