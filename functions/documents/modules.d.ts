// pdfjs-dist ships no typings for its worker module; pdfjs.ts hands it over to pdf.js and starts it on a port.
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
