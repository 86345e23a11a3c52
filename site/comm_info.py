"""Saved widgets render on open: JupyterLite's kernels answer `comm_info_request`.

On opening a notebook, the widget manager (jupyterlab_widgets) first asks the kernel which
widgets it has (`comm_info_request`) and only then restores the widget state stored in the
notebook's metadata (nbclient stores it when tools/notebooks.py executes the notebooks). Every
JupyterLite kernel implements `commInfoRequest`, but JupyterLite's `BaseKernel.handleMessage`
has no case for that message, so no reply ever comes, the restore never happens and every saved
widget says "Loading widget..." until its cell is run again. The patch adds the missing case,
replying the way the class answers its other requests (`_kernelInfo`); should the kernel fail
to answer, the reply lists no widgets (the saved state is still restored) and the kernel still
goes back to idle.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from patching import containing, sub_once

DISPATCH = re.compile(r'case"comm_close":await this\.commClose\((\w+)\)\}this\._idle\(\1\)\}')
# The module's name for @jupyterlab/services, taken from how the same class answers kernel_info.
SERVICES = re.compile(r'(\w+)\.KernelMessage\.createMessage\(\{msgType:"kernel_info_reply"')
REPLY = ('case"comm_close":await this.commClose({m});break;case"comm_info_request":'
         '{{let c={{status:"ok",comms:{{}}}};try{{c=await this.commInfoRequest({m}.content)}}'
         'catch(x){{console.warn("agent_team: comm_info_request failed",x)}}'
         'this._sendMessage({s}.KernelMessage.createMessage('
         '{{msgType:"comm_info_reply",channel:"shell",session:{m}.header.session,parentHeader:{m}.header,content:c}}))}}'
         '}}this._idle({m})}}')


def patch(out: Path) -> None:
    bundle = containing(list((out / "build").glob("*.js")), DISPATCH)
    services = set(SERVICES.findall(bundle.read_text()))
    if len(services) != 1:
        sys.exit(f"{bundle}: the kernel's message dispatch has changed (jupyterlite upgrade?)")
    (name,) = services
    sub_once(bundle, DISPATCH, lambda m: REPLY.format(m=m.group(1), s=name))
