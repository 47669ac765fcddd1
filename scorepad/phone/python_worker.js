// Scorepad's Python worker (written by `scorepad build-app` in place of Flet's python-worker.js,
// whose protocol with the page it keeps: the same messages, the same flet_js functions).
//
// What it does differently, for the start's time (docs/phone.md, "How fast"):
// - The app's archive is unpacked by JavaScript (the browser's own gunzip, then the tar's files
//   written to Pyodide's file system) instead of by Python's tarfile running in WebAssembly.
// - The first start, once the app's modules are imported and before any of them has run,
//   keeps a snapshot of Python's memory in the Cache API (Pyodide's memory snapshot); the next
//   start restores that instead of starting Python and importing the app again. The snapshot is
//   named by the build (a new build makes a new one) and dropped if it cannot be restored (the
//   start then goes the long way and makes another).
const SNAPSHOTS = "python-snapshots";  // not "scorepad-…": the service worker keeps those apart
const SNAPSHOT = "__SNAPSHOT__";  // this build's: the archive's and runtime's digest
const PRELOAD = "__PRELOAD__";  // the modules imported before the snapshot

self.pyodideUrl = null;
self.appPackageUrl = null;
self.pythonModuleName = null;
self.documentUrl = null;
self.initialized = false;
self.flet_js = {}; // namespace for Python global functions

self.userAppRunning = false;
self.flet_js.userAppStarting = function () {
    self.userAppRunning = true;
};
self.sendPythonOutput = function (text, isStderr) {
    if (!self.userAppRunning || !(self.flet_js && self.flet_js.send_python_output)) {
        if (isStderr) {
            console.error(text);
        } else {
            console.log(text);
        }
        return;
    }
    // Pyodide calls these with the GIL released: call back into Python from a microtask.
    queueMicrotask(function () {
        self.flet_js.send_python_output(text, isStderr);
    });
};

async function archiveFiles(url) {
    // The tar's regular files, as [path, bytes]: GNU long names ("L" entries) included.
    const response = await fetch(url);
    if (!response.ok) {
        throw new Error(`Failed to download app package: HTTP ${response.status} ${url}`);
    }
    let tar = new Uint8Array(await response.arrayBuffer());
    if (tar[0] === 0x1f && tar[1] === 0x8b) {  // still gzip: a host that sent it decoded had
        const stream = new Blob([tar]).stream().pipeThrough(new DecompressionStream("gzip"));
        tar = new Uint8Array(await new Response(stream).arrayBuffer());  // said "gzip" itself
    }
    const text = new TextDecoder();
    const field = (at, length) => {
        const bytes = tar.subarray(at, at + length);
        const end = bytes.indexOf(0);
        return text.decode(end < 0 ? bytes : bytes.subarray(0, end));
    };
    const files = [];
    let longName = null;
    for (let at = 0; at + 512 <= tar.length;) {
        if (tar[at] === 0) {
            break;  // the two empty blocks that end the archive
        }
        const size = parseInt(field(at + 124, 12).trim() || "0", 8);
        const type = String.fromCharCode(tar[at + 156] || 48);
        const data = tar.subarray(at + 512, at + 512 + size);
        const long = longName;
        const name = long ?? field(at, 100);
        longName = null;
        if (type === "L") {
            longName = text.decode(data).replace(/\0+$/, "");
        } else if (type === "0") {
            // A POSIX (ustar) header may split a long name into a prefix; GNU's has "L" entries.
            const prefix = !long && field(at + 257, 6) === "ustar" ? field(at + 345, 155) : "";
            files.push([prefix && name.length ? `${prefix}/${name}` : name, data]);
        }
        at += 512 + Math.ceil(size / 512) * 512;
    }
    return files;
}

function unpack(pyodide, files) {
    const FS = pyodide.FS;
    const home = FS.cwd();
    const made = new Set();
    for (const [name, data] of files) {
        const slash = name.lastIndexOf("/");
        if (slash > 0) {
            const folder = `${home}/${name.slice(0, slash)}`;
            if (!made.has(folder)) {
                FS.mkdirTree(folder);
                made.add(folder);
            }
        }
        FS.writeFile(`${home}/${name}`, data);
    }
}

async function keptSnapshot() {
    try {
        const cache = await caches.open(SNAPSHOTS);
        const kept = await cache.match(SNAPSHOT);
        return kept ? new Uint8Array(await kept.arrayBuffer()) : null;
    } catch (error) {  // no Cache API here (an insecure origin): every start is a first
        return null;
    }
}

async function keepSnapshot(snapshot) {
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) {
        await cache.delete(old);
    }
    await cache.put(SNAPSHOT, new Response(snapshot));
}

async function dropSnapshots() {
    try {
        await caches.delete(SNAPSHOTS);
    } catch (error) {
        // nothing kept, nothing to drop
    }
}

async function startPython(pyodideModule, snapshot) {
    const options = {
        stdout: (text) => self.sendPythonOutput(text, false),
        stderr: (text) => self.sendPythonOutput(text, true),
    };
    if (snapshot) {
        // Pyodide sizes the memory for the snapshot with a setting this build of it does not
        // read: the memory is grown to the snapshot's size (one allocation) before it is copied.
        const asm = self.pyodideUrl.replace(/pyodide\.mjs$/, "pyodide.asm.mjs");
        const create = (await import(asm)).default;
        options._loadSnapshot = snapshot;
        options.createPyodideModule = async (settings) => {
            const module = await create(settings);
            module._free(module._malloc(snapshot.length));
            return module;
        };
    } else {
        options._makeSnapshot = true;
    }
    return await pyodideModule.loadPyodide(options);
}

self.initPyodide = async function () {
    try {
        const files = archiveFiles(self.appPackageUrl);
        const kept = await keptSnapshot();
        const pyodideModule = await import(self.pyodideUrl);
        let pyodide = null;
        if (kept) {
            try {
                pyodide = await startPython(pyodideModule, kept);
                console.log("Scorepad: Python restored from its snapshot");
            } catch (error) {
                console.warn("Scorepad: the snapshot could not be restored:", error);
                await dropSnapshots();
            }
        }
        if (pyodide) {
            unpack(pyodide, await files);
            // The snapshot holds the random generator's state of the start that made it.
            pyodide.runPython("import random; random.seed()");
        } else {
            pyodide = await startPython(pyodideModule, null);
            unpack(pyodide, await files);
            const compiled = pyodide.runPython(`
import sys
sys.path.insert(0, "__pypackages__")
import ${PRELOAD}
[name for name, module in sys.modules.items() if (getattr(module, "__file__", None) or "").endswith(".so")]
`).toJs();
            if (compiled.length) {  // a library of its own: not restored from a snapshot
                console.warn("Scorepad: no snapshot of Python, it loaded", compiled.join(", "));
            } else {
                try {
                    const snapshot = pyodide.makeMemorySnapshot();
                    keepSnapshot(snapshot).catch(
                        (error) => console.warn("Scorepad: snapshot not kept:", error));
                } catch (error) {
                    console.warn("Scorepad: no snapshot of Python:", error);
                }
            }
        }
        self.pyodide = pyodide;
        pyodide.registerJsModule("flet_js", flet_js);
        pyodide.globals.set("python_module_name", self.pythonModuleName || "main");
        await pyodide.runPythonAsync(`
        import flet_js, runpy
        import msgpack as _msgpack

        def _send_python_output(text, is_stderr):
            # Framed as PyodideConnection.send_message frames: a 0 byte, then [action, body].
            flet_js.receive_callback(
                bytes([0]) + _msgpack.packb([7, {"text": text, "is_stderr": bool(is_stderr)}])
            )

        flet_js.send_python_output = _send_python_output
        flet_js.userAppStarting()
        try:
            runpy.run_module(python_module_name, run_name="__main__")
        except SystemExit as _exit:
            if _exit.code not in (None, 0):
                raise
      `);
        if (typeof self.flet_js.start_connection !== "function") {
            self.postMessage("__flet_no_ui__:Script finished without starting a Flet UI.");
            return;
        }
        await self.flet_js.start_connection(self.receiveCallback);
        self.postMessage("initialized");
    } catch (error) {
        self.postMessage(error.toString());
    }
};

self.receiveCallback = (message) => {
    // A fresh Uint8Array of the Python bytes: its buffer is handed over, not copied.
    const bytes = message.toJs();
    self.postMessage(bytes, [bytes.buffer]);
};
self.flet_js.receive_callback = self.receiveCallback;

self.onmessage = async (event) => {
    if (!self.initialized) {
        self.initialized = true;
        self.pyodideUrl = event.data.pyodideUrl;
        self.flet_js.args = event.data.args;
        self.documentUrl = event.data.documentUrl;
        self.flet_js.documentUrl = event.data.documentUrl;
        self.appPackageUrl = event.data.appPackageUrl;
        self.pythonModuleName = event.data.pythonModuleName;
        await self.initPyodide();
    } else if (typeof flet_js.send === "function") {
        flet_js.send(event.data);
    } else {
        console.error("Flet: dropped a message for a Python app that never started.");
    }
};
