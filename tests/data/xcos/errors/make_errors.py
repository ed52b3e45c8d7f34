#!/usr/bin/env python3
"""Makes the damaged Xcos files of the reader's bad-input tests from
../basic/basic.xcos and ../basic/basic.zcos (written by Scilab 6.1.1 with
../basic/basic.sce). Run from this folder: python3 make_errors.py"""
import re
import zipfile

xcos = open('../basic/basic.xcos', encoding='utf-8').read()
zcos = open('../basic/basic.zcos', 'rb').read()

# Cut off mid-archive: no central directory.
open('truncated.zcos', 'wb').write(zcos[:len(zcos) // 2])

def rezip(name, content=None, dictionary=None):
    src = zipfile.ZipFile('../basic/basic.zcos')
    with zipfile.ZipFile(name, 'w', zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == 'content.xml' and content is not None:
                data = content(data.decode('utf-8')).encode('utf-8')
            if item.filename == 'dictionary/dictionary.ser' and dictionary:
                data = dictionary(data)
            out.writestr(item, data)

# The serialized dictionary cut in the middle of an object.
rezip('corrupt_dict.zcos', dictionary=lambda d: d[:len(d) // 2])
# Block data referring to a dictionary entry that does not exist.
rezip('badref.zcos',
      content=lambda c: c.replace('position="15"', 'position="999"', 1))
# A member whose bytes do not match its CRC.
data = bytearray(zcos)
i = data.find(b'content.xml') + 200
data[i:i + 8] = b'\x00' * 8
open('crc.zcos', 'wb').write(bytes(data))

# A link whose target port does not exist.
open('missing_port.xcos', 'w', encoding='utf-8').write(
    re.sub(r'(<ExplicitLink [^>]*target=")[^"]*"', r'\1no-such-port"', xcos,
           count=1))
# A block type blocksim does not have.
open('unknown_block.xcos', 'w', encoding='utf-8').write(
    xcos.replace('interfaceFunctionName="GAINBLK"',
                 'interfaceFunctionName="NO_SUCH_BLOCK"', 1)
        .replace('simulationFunctionName="gainblk"',
                 'simulationFunctionName="no_such_function"', 1))
