#!/usr/bin/env python3
"""A small OpenAI-compatible chat completions server for the caption and llm_rewrite tests
(stdlib only).

Listens on 127.0.0.1 on a port the OS chooses and prints that port on its first line. Each
reply is made from the request alone, so a test can check what was sent: the number of images,
each image's decoded size (from the JPEG's frame header) and a hash of the prompt and of the
image bytes. Faults are scripted: --script 500,429,hang,malformed,400 answers the first
requests that way, in order of arrival, and the rest with --then (ok by default); 429r2 is a
429 with Retry-After: 2; echo answers with the user message's text as it came (so a test
chooses the reply through the document it sends). A message's content may be a string (text
requests, llm_rewrite) or a list of parts (caption). Every request is logged as a JSON line to
--log (behaviour, arrival time, what it carried: the system and user texts, model, sampling).
"""
import argparse
import base64
import hashlib
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def jpeg_size(data):
    """(width, height) from a JPEG's start-of-frame marker, or None."""
    if data[:2] != b"\xff\xd8":
        return None
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:
            i += 1
            continue
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height = int.from_bytes(data[i + 5:i + 7], "big")
            width = int.from_bytes(data[i + 7:i + 9], "big")
            return width, height
        i += 2 + length
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", default="")
    parser.add_argument("--then", default="ok")
    parser.add_argument("--hang-s", type=float, default=5.0)
    parser.add_argument("--log", default="")
    args = parser.parse_args()
    script = [s for s in args.script.split(",") if s]
    lock = threading.Lock()
    state = {"n": 0}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # The headers and the body go out in two writes: with Nagle's algorithm the body waits
        # for the client's delayed ACK of the headers, 40 ms per reply on Linux.
        disable_nagle_algorithm = True

        def log_message(self, *unused):
            pass

        def reply(self, status, body, content_type="application/json", retry_after=""):
            data = body.encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                if retry_after:
                    self.send_header("Retry-After", retry_after)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (its timeout): nothing to answer

        def do_POST(self):
            arrived = time.monotonic()
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            with lock:
                n = state["n"]
                state["n"] += 1
            behaviour = script[n] if n < len(script) else args.then
            try:
                request = json.loads(body)
                images, prompt, system, roles = [], "", None, []
                for message in request["messages"]:
                    roles.append(message["role"])
                    content = message["content"]
                    if isinstance(content, str):
                        text = content
                    else:
                        images += [part["image_url"]["url"] for part in content
                                   if part.get("type") == "image_url"]
                        text = "".join(part["text"] for part in content
                                       if part.get("type") == "text")
                    if message["role"] == "system":
                        system = text
                    elif message["role"] == "user":
                        prompt += text
            except (ValueError, KeyError, IndexError, TypeError):
                request, images, prompt, system, roles = {}, [], "", None, []
            decoded = [base64.b64decode(url.split(",", 1)[1]) for url in images
                       if url.startswith("data:image/jpeg;base64,")]
            sizes = [jpeg_size(d) for d in decoded]
            frames_hash = hashlib.sha256(b"".join(decoded)).hexdigest()[:12]
            prompt_hash = hashlib.sha256(prompt.encode()).hexdigest()[:12]
            entry = {
                "n": n, "behaviour": behaviour, "t": arrived, "path": self.path,
                "images": len(images), "jpegs": len(decoded), "frames": frames_hash,
                "sizes": ["%dx%d" % s if s else "?" for s in sizes],
                "prompt": prompt, "system": system, "roles": roles,
                "model": request.get("model"), "seed": request.get("seed"),
                "max_tokens": request.get("max_tokens"),
                "temperature": request.get("temperature"), "top_p": request.get("top_p"),
                "authorization": self.headers.get("Authorization", ""),
            }
            if args.log:
                with lock, open(args.log, "a") as log:
                    log.write(json.dumps(entry) + "\n")
            if behaviour == "hang":
                time.sleep(args.hang_s)
                behaviour = "ok"
            if behaviour == "malformed":
                self.reply(200, '{"choices": [{"message": {"content": "cut')
                return
            if behaviour.split("r")[0].isdigit():
                # "429r2": status 429 with Retry-After: 2.
                status, _, retry_after = behaviour.partition("r")
                self.reply(int(status),
                           json.dumps({"error": {"message": "scripted %s" % behaviour}}),
                           retry_after=retry_after)
                return
            if behaviour == "echo":
                text = prompt
            else:
                text = "images=%d sizes=%s prompt=%s frames=%s" % (
                    len(decoded), ",".join(entry["sizes"]), prompt_hash, frames_hash)
            self.reply(200, json.dumps({
                "id": "chatcmpl-%d" % n, "object": "chat.completion",
                "model": request.get("model"),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": text}}],
            }))

    class Server(ThreadingHTTPServer):
        daemon_threads = True
        # socketserver listens with a backlog of 5: a client opening more connections at once
        # has the rest's SYNs dropped and resent a second later.
        request_queue_size = 128

    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
