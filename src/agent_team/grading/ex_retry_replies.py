"""Real replies of a real model, recorded by tools/record_retry_replies.py: data, not code.

Exercise 7.1's grader replays them (agent_team.grading.ex_retry). Nothing here is scripted:
every reply is what the model named in LABEL answered, or what its server answered.
"""

LABEL = {'model': 'SmolLM2-135M-Instruct',
 'quantisation': 'Q4_1',
 'file': 'SmolLM2-135M-Instruct.Q4_1.gguf',
 'server': 'tools/llm-server/serve.mjs (node-llama-cpp, llama.cpp CPU, 1 thread, context 2048)',
 'role': 'coder, first turn (the prompt agent_team.llm.build_prompt makes)',
 'date': '2026-12-01',
 'machine': 'x86_64'}

RECORDINGS = [{'name': 'free text (no schema), 300 tokens',
  'structured': False,
  'max_tokens': 300,
  'temperature': 0.0,
  'call_seconds': 600,
  'reply': '```python\n'
           'import json\n'
           '\n'
           'def fizzbuzz(n):\n'
           '    return str(n)\n'
           '\n'
           'def fizzbuzz_test_json(test_data):\n'
           '    return json.dumps({"role": "coder", "thought": "one short sentence", "message": "one short '
           'sentence"})\n'
           '\n'
           'def fizzbuzz_test_json_json(test_data):\n'
           '    return json.dumps({"role": "coder", "thought": "one short sentence", "message": "one short '
           'sentence"})\n'
           '\n'
           'def fizzbuzz_test_json_json_json(test_data):\n'
           '    return json.dumps({"role": "coder", "thought": "one short sentence", "message": "one short '
           'sentence"})\n'
           '\n'
           'def fizzbuzz_test_json_json_json_json(test_data):\n'
           '    return json.dumps({"role": "coder", "thought": "one short sentence", "message": "one short '
           'sentence"})\n'
           '\n'
           'def fizzbuzz_test_json_json_json_json_json(test_data):\n'
           '    return json.dumps({"role": "coder", "thought": "one short sentence", "message": "one short '
           'sentence"})\n'
           '\n'
           'def fizzbuzz_test_json_json_json_json_json_json(test_data):\n'
           '    return json.dumps({"role": "coder", "',
  'status': 200,
  'failure': 'bad reply',
  'error': 'the reply is not JSON (Expecting value at line 1 column 1)',
  'usage': {'prompt_tokens': 196, 'completion_tokens': 300},
  'seconds': 6.27},
 {'name': 'free text (no schema), 60 tokens: cut off',
  'structured': False,
  'max_tokens': 60,
  'temperature': 0.0,
  'call_seconds': 600,
  'reply': '```python\n'
           'import json\n'
           '\n'
           'def fizzbuzz(n):\n'
           '    return str(n)\n'
           '\n'
           'def fizzbuzz_test_json(test_data):\n'
           '    return json.dumps({"role": "coder", "thought": "one short sentence", "message":',
  'status': 200,
  'failure': 'bad reply',
  'error': 'the reply is not JSON (Expecting value at line 1 column 1)',
  'usage': {'prompt_tokens': 196, 'completion_tokens': 60},
  'seconds': 1.85},
 {'name': "held to the coder's schema, 300 tokens",
  'structured': True,
  'max_tokens': 300,
  'temperature': 0.0,
  'call_seconds': 600,
  'reply': '{\n'
           '    "role": "coder",\n'
           '    "thought": "one short sentence",\n'
           '    "patches": [{"path": "src/fizzbuzz.py", "content": "the whole new file"}],\n'
           '    "message": "one short sentence"\n'
           '}',
  'status': 200,
  'failure': None,
  'error': None,
  'usage': {'prompt_tokens': 196, 'completion_tokens': 57},
  'seconds': 2.03},
 {'name': "wrong address (no /v1): the server's own 404",
  'structured': False,
  'max_tokens': 60,
  'temperature': 0.0,
  'call_seconds': 600,
  'reply': None,
  'status': 404,
  'failure': 'error',
  'error': 'not found (404) (the server said: "no POST /chat/completions here; POST /v1/chat/completions"): '
           "check the model name 'smollm2' and the base_url (http://127.0.0.1:8765/chat/completions); "
           'OpenAI-compatible servers usually end in /v1',
  'seconds': 0.0},
 {'name': '2000 tokens asked for in 0.5 s: the call times out',
  'structured': False,
  'max_tokens': 2000,
  'temperature': 0.0,
  'call_seconds': 0.5,
  'reply': None,
  'status': None,
  'failure': 'timeout',
  'error': 'no answer within 0.5 s (the time left for this call)',
  'seconds': 0.51}]
