// Scorepad (written by `scorepad build-app` in place of Flet's jsConnect): the Python worker is
// started with the page, so that Pyodide and the app load while the Flutter engine loads, not
// after it. The first connection takes that worker; a later one (a reconnect) starts its own.
let _early = null;

function _startWorker(args) {
    const worker = new Worker(
        (flet.entrypointBaseUrl.endsWith("/") ?
            flet.entrypointBaseUrl.slice(0, -1) : flet.entrypointBaseUrl) + "/python-worker.js",
        { type: "module" });
    const started = { worker: worker, held: [], error: null };
    started.initialized = new Promise((resolve) => {
        worker.onmessage = (event) => {
            if (typeof event.data === "string") {
                if (event.data != "initialized") {
                    started.error = event.data;
                }
                resolve();
            } else {
                started.held.push(event.data);  // none is sent before Flutter registers
            }
        };
    });
    worker.postMessage({
        pyodideUrl: flet.pyodideUrl || "pyodide/pyodide.mjs",
        args: args,
        documentUrl: _documentUrl,
        appPackageUrl: flet.appPackageUrl,
        micropipIncludePre: flet.micropipIncludePre,
        pythonModuleName: flet.pythonModuleName
    });
    return started;
}

_early = _startWorker({});

globalThis.jsConnect = async function (appId, args, dartOnMessage) {
    console.log(`Starting up Python worker: ${appId}`);
    const started = _early || _startWorker(args);
    _early = null;
    const app = { "dartOnMessage": dartOnMessage, "worker": started.worker };
    _apps[appId] = app;
    await started.initialized;
    app.worker.onmessage = (event) => app.dartOnMessage(event.data);
    for (const data of started.held) {
        app.dartOnMessage(data);
    }
    if (started.error) {
        console.error("Python worker init error:", started.error);
        await jsDisconnect(appId);
        throw started.error;
    }
    console.log(`Python worker initialized: ${appId}`);
}

