"""A UCI engine on a pipe, for the scripts that drive one (play_speed.py, loss_drops.py)."""
import subprocess
import sys


class UciPipe:
    """Sends commands and reads until a line that starts with a prefix. The engine exiting, or a
    line that starts with `info string error` or `error`, ends the script with WHO's name."""

    def __init__(self, argv, who, cwd=None):
        self.who = who
        try:
            self.p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                      bufsize=1)
        except OSError as e:
            sys.exit(f"{who}: cannot start {argv[0]}: {e.strerror}")

    def send(self, command):
        self.p.stdin.write(command + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        """The lines read up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit(f"{self.who}: the engine exited (stderr above) while waiting for '{prefix}'")
            if line.startswith("info string error") or line.startswith("error"):
                sys.exit(f"{self.who}: {line.strip()}")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        self.p.wait()
